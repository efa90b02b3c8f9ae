import GeoNewsGeodesy

/// A rectangular map view: its centre and its size in points.
public struct Viewport: Hashable, Sendable {
    public var center: Coordinate
    /// Width in points, greater than 0.
    public var width: Double
    /// Height in points, greater than 0.
    public var height: Double

    public init(center: Coordinate, width: Double = 390, height: Double = 844) {
        self.center = center
        self.width = width
        self.height = height
    }

    /// The degrees the view covers at `zoom` over Web Mercator tiles of `tileSize` points.
    ///
    /// West may come out below −180 or east above 180 when the view straddles the
    /// antimeridian; ``ClusterIndex/clusters(in:zoom:)`` wraps them. Wider than the world
    /// gives a box 360° or wider, which queries the whole world.
    public func bounds(atZoom zoom: Double, tileSize: Double = 512) -> ClusterIndex.Bounds {
        let worldPoints = tileSize * pow2Fractional(zoom)
        let cx = WebMercator.x(longitude: center.longitude)
        let cy = WebMercator.y(
            latitude: Swift.min(
                Swift.max(center.latitude, -CameraAltitude.mercatorLatitudeLimit),
                CameraAltitude.mercatorLatitudeLimit))
        let halfWidth = width / 2 / worldPoints, halfHeight = height / 2 / worldPoints
        return ClusterIndex.Bounds(
            west: WebMercator.longitude(x: cx - halfWidth),
            south: WebMercator.latitude(y: Swift.min(cy + halfHeight, 1)),
            east: WebMercator.longitude(x: cx + halfWidth),
            north: WebMercator.latitude(y: Swift.max(cy - halfHeight, 0))
        )
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func pow2Fractional(_ z: Double) -> Double { pow(2, z) }

import GeoNewsGeodesy

/// A cluster query as a map client states it, in text: a zoom or a camera altitude, and a box
/// or a view centre. One reading of the arguments for `geonews cluster` and
/// `GET /v1/clusters`.
public struct ClusterQuery: Hashable, Sendable {
    /// The zoom to query, fractional allowed (the level is `floor(zoom)`).
    public var zoom: Double
    /// The degrees to query; the whole world without a box or a centre.
    public var bounds: ClusterIndex.Bounds
    /// How the zoom was reached, for a summary: `zoom 3` or
    /// `altitude 15000 km at 0.0° in 390x844 → zoom 3.05`.
    public var origin: String

    /// Reads the query's arguments.
    ///
    /// - Parameters:
    ///   - zoom: a zoom level (exactly one of `zoom` and `altitude`).
    ///   - altitude: a camera altitude such as `15000km` or `2500m`, turned into a zoom with
    ///     ``CameraAltitude/zoom(latitude:viewportHeight:tileSize:)`` at the latitude of
    ///     `center` (0 without one).
    ///   - bbox: `W,S,E,N` in degrees; without it, the viewport around `center`, or the world.
    ///   - center: `LAT,LON` in degrees.
    ///   - viewport: `WIDTHxHEIGHT` in points, each side 1…100,000.
    ///   - tileSize: 512 or 256 points.
    ///
    /// Every number is bounded here (see ``ClusterQueryText`` and
    /// ``CameraAltitude/parsedMetres``), so that the zoom and the box that follow from them
    /// are finite.
    /// - Throws: ``ClusterQueryError`` quoting the argument at fault.
    public init(
        zoom: String?, altitude: String?, bbox: String?, center: String?,
        viewport: String = "390x844", tileSize: Int = 512
    ) throws(ClusterQueryError) {
        guard tileSize == 512 || tileSize == 256 else { throw .tileSize(tileSize) }
        let centre = try center.map(ClusterQueryText.center)
        let size = try ClusterQueryText.viewport(viewport)
        switch (zoom, altitude) {
        case (.some, .some):
            throw .zoomAndAltitude
        case (.some(let text), nil):
            self.zoom = try ClusterQueryText.zoom(text)
            origin = "zoom \(text)"
        case (nil, .some(let text)):
            let camera: CameraAltitude
            do { camera = try CameraAltitude(parsing: text) } catch { throw .altitude(error) }
            let latitude = centre?.latitude ?? 0
            let z = camera.zoom(latitude: latitude, viewportHeight: size.height, tileSize: Double(tileSize))
            self.zoom = z
            let rounded = (z * 100).rounded() / 100
            origin = "altitude \(camera) at \(latitude)° in \(Self.points(size.width))x\(Self.points(size.height)) → zoom \(rounded)"
        case (nil, nil):
            throw .noZoom
        }
        if let bbox {
            bounds = try ClusterQueryText.bounds(bbox)
        } else if let centre {
            bounds = Viewport(center: centre, width: size.width, height: size.height)
                .bounds(atZoom: self.zoom, tileSize: Double(tileSize))
        } else {
            bounds = .world
        }
    }

    /// A viewport side as typed: `390`, or `390.5` when it has a fraction.
    private static func points(_ side: Double) -> String {
        Int(exactly: side).map(String.init) ?? "\(side)"
    }
}

import GeoNewsGeodesy

/// One thing drawn on the map at some zoom: a cluster or a lone point.
public struct ClusterFeature: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// An input point, by its index in ``ClusterIndex/points``.
        case point(index: Int)
        /// A cluster of two or more points.
        case cluster(ClusterID)
    }

    public var kind: Kind
    /// For a point its input coordinate; for a cluster the count-weighted mean of its members
    /// in Web Mercator, in degrees.
    public var coordinate: Coordinate
    /// Number of input points it stands for (1 for a point).
    public var pointCount: Int

    public init(kind: Kind, coordinate: Coordinate, pointCount: Int) {
        self.kind = kind
        self.coordinate = coordinate
        self.pointCount = pointCount
    }

    /// The cluster id, or `nil` for a point.
    public var clusterID: ClusterID? {
        if case .cluster(let id) = kind { return id }
        return nil
    }
}

/// A feature of a vector tile: its kind and count, and its position in tile pixels
/// (0…extent across the tile; features in the buffer around it fall slightly outside).
public struct TileFeature: Hashable, Sendable {
    public var kind: ClusterFeature.Kind
    public var pointCount: Int
    public var x: Int
    public var y: Int

    /// The cluster id, or `nil` for a point.
    public var clusterID: ClusterID? {
        if case .cluster(let id) = kind { return id }
        return nil
    }
}

extension ClusterIndex {
    /// A box in degrees, the geodesy module's ``BoundingBox``. `west > east` means it crosses
    /// the antimeridian; a box 360° or wider is the whole world; latitudes are clamped to
    /// −90…90 when queried.
    public typealias Bounds = BoundingBox
}

extension BoundingBox {
    /// −180, −90, 180, 90: every cluster at a zoom.
    public static let world = BoundingBox(west: -180, south: -90, east: 180, north: 90)
}

/// The identity of a cluster, stable for the life of its ``ClusterIndex``.
///
/// A 64-bit value: the high 56 bits are the cluster's ordinal (the order in which the build
/// created it, from 0), the low 8 bits the zoom level at which it formed (0…254).
///
///     rawValue = ordinal << 8 | zoom
///
/// supercluster packs `(index << 5) + (zoom + 1) + pointCount` into a JavaScript number and
/// shifts with 32-bit integers, so its ids overflow past 2^26 items on a level and collide for
/// zooms of 31 and above. Here the ordinal has room for 2^56 clusters and the zoom for every
/// level ``ClusterOptions`` accepts. Ids never collide with point indices because they are a
/// different type; in GeoJSON they are written as `cluster_id`, apart from point ids.
public struct ClusterID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The id of the `ordinal`-th cluster built, formed at `zoom`.
    ///
    /// - Precondition: `ordinal` is in 0..<2^56 and `zoom` in 0…255; callers inside the
    ///   module guarantee both.
    @inlinable
    public init(ordinal: Int, zoom: Int) {
        rawValue = UInt64(ordinal) << 8 | UInt64(zoom & 0xFF)
    }

    /// Order in which the build created the cluster, from 0.
    @inlinable
    public var ordinal: Int { Int(rawValue >> 8) }

    /// Zoom level at which the cluster formed; it is shown at this zoom and below, until it is
    /// absorbed, and splits at `zoom + 1`.
    @inlinable
    public var zoom: Int { Int(rawValue & 0xFF) }

    public static func < (a: ClusterID, b: ClusterID) -> Bool { a.rawValue < b.rawValue }

    public var description: String { String(rawValue) }
}

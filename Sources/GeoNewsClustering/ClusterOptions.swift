/// How a ``ClusterIndex`` groups points: the supercluster v8 options, with the same defaults.
///
/// Zoom levels are Web Mercator tile zooms (0 is the whole world in one tile). A level holds the
/// clusters shown at that zoom; points farther apart than `radius` pixels at that zoom stay apart.
public struct ClusterOptions: Hashable, Sendable {
    /// Lowest zoom level clusters are computed for, 0…`maxZoom`.
    public var minZoom: Int = 0
    /// Highest zoom level that clusters; above it every point stands alone. At most 254.
    public var maxZoom: Int = 16
    /// Smallest number of points that forms a cluster, at least 2.
    public var minPoints: Int = 2
    /// Cluster radius in pixels of a tile `extent` pixels wide, greater than 0.
    public var radius: Double = 40
    /// Tile extent in pixels that `radius` is relative to, greater than 0.
    public var extent: Double = 512
    /// Whether points on both sides of the antimeridian (179.99° and −179.99°) may join one
    /// cluster. supercluster never joins them; off by default for compatibility.
    public var wrapsAntimeridian: Bool = false

    public init(
        minZoom: Int = 0, maxZoom: Int = 16, minPoints: Int = 2,
        radius: Double = 40, extent: Double = 512, wrapsAntimeridian: Bool = false
    ) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.radius = radius
        self.extent = extent
        self.wrapsAntimeridian = wrapsAntimeridian
    }

    /// Highest `maxZoom` accepted: a ``ClusterID`` keeps its zoom in 8 bits.
    public static let highestZoom = 254

    /// Checks every option, naming the first bad one.
    public func validate() throws(ClusterIndexError) {
        guard (0...Self.highestZoom).contains(maxZoom) else {
            throw .invalidOption(name: "maxZoom", value: "\(maxZoom)", expected: "0…\(Self.highestZoom)")
        }
        guard (0...maxZoom).contains(minZoom) else {
            throw .invalidOption(name: "minZoom", value: "\(minZoom)", expected: "0…maxZoom (\(maxZoom))")
        }
        guard minPoints >= 2 else {
            throw .invalidOption(name: "minPoints", value: "\(minPoints)", expected: "2 or more")
        }
        guard radius.isFinite, radius > 0 else {
            throw .invalidOption(name: "radius", value: "\(radius)", expected: "a finite number of pixels above 0")
        }
        guard extent.isFinite, extent > 0 else {
            throw .invalidOption(name: "extent", value: "\(extent)", expected: "a finite number of pixels above 0")
        }
    }

    /// The clustering radius at `zoom` in Web Mercator units (the world is 1 wide):
    /// `radius / (extent · 2^zoom)`, as supercluster computes it.
    @inlinable
    public func mercatorRadius(atZoom zoom: Int) -> Double {
        radius / (extent * pow2(zoom))
    }
}

/// 2^z as a Double, exact for every zoom this module accepts (and for z = −1).
@usableFromInline
func pow2(_ z: Int) -> Double {
    Double(sign: .plus, exponent: z, significand: 1)
}

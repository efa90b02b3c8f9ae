import GeoNewsGeodesy

/// Points clustered for every zoom level at once, after mapbox/supercluster v8: hierarchical
/// greedy clustering from `maxZoom` down to `minZoom`, each level clustering the one above it,
/// so clusters nest.
///
/// Build once, then query from any number of threads: the index is an immutable value.
///
/// ```swift
/// let index = try ClusterIndex(points: markers)
/// let bubbles = try index.clusters(in: .world, zoom: 3.04)
/// ```
///
/// Same results as supercluster (same clusters, same centres, same counts at every zoom) for
/// `minPoints` 2, with these differences, each asked for by its users:
/// - Ids are 64-bit ``ClusterID``s that neither overflow nor collide (see there).
/// - ``ClusterOptions/wrapsAntimeridian`` lets points at 179.99° and −179.99° join.
/// - Zooms may be fractional: a query uses the level `floor(zoom)`, clamped to
///   `minZoom…maxZoom + 1` (supercluster v8 floors too, but documents integers only).
/// - Coordinates are kept as Doubles (supercluster JS rounds them to Float32).
/// - Items come back in grid order, children as seed first then members, rather than in
///   KD-tree order. With `minPoints` above 2, items that stay unclustered keep their visiting
///   order on the next level instead of following their would-be seed; the greedy rule itself
///   is unchanged.
/// - Instead of a KD-tree per zoom, each level is sorted on a grid whose cells are at least
///   the radius wide: neighbour search is then three short scans per item, and
///   going down a level is a linear merge rather than a new sort.
public struct ClusterIndex: Sendable {
    /// The options the index was built with.
    public let options: ClusterOptions
    /// The input points, in input order; a point's index is its position here.
    public let points: FlatTable<Coordinate>

    // The node table: points first (numbered in the top level's grid order), then clusters in
    // the order they were made. Coordinates are Web Mercator (see `WebMercator`). The tables
    // are heap arrays for an index built here, views of mapped bytes for one read from a
    // ``ClusterArchive``. They are variables only so that the tests of `checkInvariants()` can
    // damage a copy; nothing writes them after `init`.
    var nodeX: FlatTable<Double>
    var nodeY: FlatTable<Double>
    var nodeCount: FlatTable<UInt32>
    /// For a point node its input index; for a cluster the input index of the point that
    /// seeded it (its visiting order).
    var nodeSeed: FlatTable<UInt32>

    // Clusters, by ordinal (node − points.count).
    var clusterZoom: FlatTable<UInt8>
    /// Each cluster's latitude in degrees, worked out once here rather than on every query
    /// (the inverse Mercator takes an `exp` and an `atan`, most of a world query's time).
    var clusterLatitude: FlatTable<Double>
    /// Children of cluster c are `childNodes[childStart[c] ..< childStart[c + 1]]`.
    var childStart: FlatTable<UInt32>
    var childNodes: FlatTable<UInt32>

    /// Level L (minZoom…maxZoom + 1) at `L − minZoom`: its nodes in grid-key order.
    var levelNodes: [FlatTable<UInt32>]
    /// For small levels, their nodes' x, y pairs in the same order; empty for the others.
    var levelPositions: [FlatTable<Double>]
    var levelGrids: [CellGrid]

    /// Most points an index holds: nodes are numbered with 32 bits.
    public static let maximumPointCount = Int(Int32.max)

    /// Clusters `points` at every zoom from `options.minZoom` to `options.maxZoom`.
    ///
    /// - Parameter points: positions in degrees; latitudes beyond ±85.0511° sit on the map's
    ///   top or bottom edge, as in supercluster. An empty array gives an index that answers
    ///   every query with nothing.
    /// - Throws: ``ClusterIndexError/invalidOption(name:value:expected:)`` for a bad option,
    ///   ``ClusterIndexError/invalidPoint(index:reason:)`` for a non-finite or out-of-range
    ///   coordinate, naming its index.
    public init(points: [Coordinate], options: ClusterOptions = ClusterOptions()) throws(ClusterIndexError) {
        try options.validate()
        guard points.count <= Self.maximumPointCount else { throw .tooManyPoints(points.count) }
        for (i, p) in points.enumerated()
        where
            !(p.latitude.isFinite && p.longitude.isFinite
            && abs(p.latitude) <= 90 && abs(p.longitude) <= 180)
        {
            do {
                _ = try Coordinate.validated(latitude: p.latitude, longitude: p.longitude)
            } catch {
                throw .invalidPoint(index: i, reason: error)
            }
        }
        var builder = ClusterBuilder(points: points, options: options)
        builder.build()
        self.options = options
        // O(1): an Array and a ContiguousArray share their storage on this platform.
        self.points = FlatTable(ContiguousArray(points))
        let nodes = builder.nodes
        nodeX = FlatTable(nodes.x)
        nodeY = FlatTable(nodes.y)
        nodeCount = FlatTable(nodes.pointCounts)
        nodeSeed = FlatTable(nodes.seeds)
        clusterZoom = FlatTable(nodes.clusterZooms)
        clusterLatitude = FlatTable(ContiguousArray(nodes.y[points.count...].lazy.map { WebMercator.latitude(y: $0) }))
        childStart = FlatTable(nodes.childStarts)
        childNodes = FlatTable(nodes.children)
        levelNodes = builder.levels.nodes.map(FlatTable.init)
        levelPositions = builder.levels.positions.map(FlatTable.init)
        levelGrids = builder.levels.grids
    }

    /// An index over tables read back from an archive; ``ClusterArchive`` checks them first.
    init(
        options: ClusterOptions, points: FlatTable<Coordinate>, nodeX: FlatTable<Double>, nodeY: FlatTable<Double>,
        nodeCount: FlatTable<UInt32>, nodeSeed: FlatTable<UInt32>, clusterZoom: FlatTable<UInt8>,
        clusterLatitude: FlatTable<Double>, childStart: FlatTable<UInt32>, childNodes: FlatTable<UInt32>,
        levelNodes: [FlatTable<UInt32>], levelPositions: [FlatTable<Double>], levelGrids: [CellGrid]
    ) {
        self.options = options
        self.points = points
        self.nodeX = nodeX
        self.nodeY = nodeY
        self.nodeCount = nodeCount
        self.nodeSeed = nodeSeed
        self.clusterZoom = clusterZoom
        self.clusterLatitude = clusterLatitude
        self.childStart = childStart
        self.childNodes = childNodes
        self.levelNodes = levelNodes
        self.levelPositions = levelPositions
        self.levelGrids = levelGrids
    }

    /// Number of clusters made over all zooms.
    public var clusterCount: Int { clusterZoom.count }

    /// Number of items (clusters and lone points) shown at `zoom` over the whole world.
    public func itemCount(atZoom zoom: Double) throws(ClusterIndexError) -> Int {
        levelNodes[try level(forZoom: zoom) - options.minZoom].count
    }

    /// The level a (possibly fractional) zoom reads: `floor(zoom)` clamped to
    /// `minZoom…maxZoom + 1`, where `maxZoom + 1` holds the unclustered points.
    public func level(forZoom zoom: Double) throws(ClusterIndexError) -> Int {
        guard !zoom.isNaN else { throw .invalidQuery(name: "zoom", value: "\(zoom)", expected: "a number") }
        let top = Double(options.maxZoom + 1)
        let z = Swift.min(Swift.max(zoom.rounded(.down), Double(options.minZoom)), top)
        return Int(z)
    }
}

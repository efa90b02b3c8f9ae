import GeoNewsJSON

extension ClusterIndex {
    /// The extent of the vector tiles ``vectorTile(z:x:y:ids:names:layerName:)`` writes: the
    /// spec's customary 4096 units across a tile.
    public static let vectorTileExtent = 4096

    /// The most bytes a tile from ``vectorTile(z:x:y:ids:names:layerName:)`` takes:
    /// tippecanoe's default limit, which MapLibre and Mapbox clients are built around.
    public static let maximumTileBytes = 500_000

    /// Tile (z, x, y) as a Mapbox Vector Tile 2.1: one layer of points, the clusters and lone
    /// points of ``tile(z:x:y:tileExtent:)`` with a buffer around the tile, on a 4096-unit grid.
    ///
    /// Properties are those of ``featureCollection(_:ids:names:abbreviatedCounts:)`` with
    /// abbreviated counts: a cluster has `cluster` (true), `cluster_id`, `point_count`,
    /// `point_count_abbreviated` (a number below 1000, else text such as `3.2k`),
    /// `expansion_zoom` and, up to ``listedMembersLimit`` points, `members` (a vector tile
    /// value cannot be a list, so it is the JSON array text of the member ids); a lone point
    /// has `id` and, when known, `name`. A cluster's feature id is its cluster id. An empty
    /// tile is zero bytes, as the spec allows.
    ///
    /// A tile never takes more than ``maximumTileBytes``. Clusters are written first, then
    /// lone points; a feature whose text properties (`members`, `id`, `name`) would pass the
    /// limit is written without them, and once even such a bare feature does not fit, the
    /// rest are left out. Clustering keeps a tile to a few hundred features up to
    /// ``ClusterOptions/maxZoom``, so this only happens past it, where points are no longer
    /// clustered and tens of thousands of them share one tile.
    ///
    /// - Parameters:
    ///   - ids: one id per input point, indexed like ``points``.
    ///   - names: one optional display name per input point, indexed like ``points``.
    ///   - layerName: the layer MapLibre's `source-layer` names.
    /// - Throws: ``ClusterIndexError/invalidQuery(name:value:expected:)`` unless 0 ≤ z ≤ 62 and
    ///   0 ≤ x, y < 2^z.
    public func vectorTile(
        z: Int, x: Int, y: Int, ids: [String], names: [String?], layerName: String = "clusters"
    ) throws(ClusterIndexError) -> [UInt8] {
        try vectorTile(z: z, x: x, y: y, labels: PointLabelArrays(ids: ids, names: names), layerName: layerName)
    }

    /// ``vectorTile(z:x:y:ids:names:layerName:)`` with the points' ids and names from `labels`.
    public func vectorTile(
        z: Int, x: Int, y: Int, labels: some PointLabels, layerName: String = "clusters"
    ) throws(ClusterIndexError) -> [UInt8] {
        let features = try tile(z: z, x: x, y: y, tileExtent: Double(Self.vectorTileExtent))
        var layer = VectorTileLayer(name: layerName, extent: UInt32(Self.vectorTileExtent))
        let budget = Self.maximumTileBytes - 8  // the Tile message's own field key and length
        for f in features.filter({ $0.clusterID != nil }) + features.filter({ $0.clusterID == nil }) {
            var id: UInt64?
            var numbers: [(String, VectorTileLayer.Value)] = []
            var texts: [(String, VectorTileLayer.Value)] = []
            switch f.kind {
            case .cluster(let cluster):
                id = cluster.rawValue
                let abbreviated: VectorTileLayer.Value =
                    f.pointCount < 1000
                    ? .unsigned(UInt64(f.pointCount)) : .string(String(Self.abbreviated(f.pointCount).dropFirst().dropLast()))
                numbers = [
                    ("cluster", .bool(true)), ("cluster_id", .unsigned(cluster.rawValue)),
                    ("point_count", .unsigned(UInt64(f.pointCount))), ("point_count_abbreviated", abbreviated),
                    ("expansion_zoom", .unsigned(UInt64(try expansionZoom(of: cluster)))),
                ]
                if let members = try listedMembers(of: cluster, pointCount: f.pointCount, labels: labels) {
                    texts = [("members", .string(members))]
                }
            case .point(let p):
                texts = [("id", .string(labels.id(ofPoint: p)))]
                if let name = labels.name(ofPoint: p) { texts.append(("name", .string(name))) }
            }
            if layer.addPoint(x: f.x, y: f.y, id: id, properties: numbers + texts, within: budget) { continue }
            guard !texts.isEmpty, layer.addPoint(x: f.x, y: f.y, id: id, properties: numbers, within: budget) else { break }
        }
        return VectorTileLayer.tile([layer])
    }
}

extension ClusterIndex {
    /// The box in degrees that Web Mercator tile (z, x, y) covers: x counts columns east from
    /// −180°, y rows south from 85.0511° N; the last column's east edge is exactly 180°.
    /// The caller checks 0 ≤ x, y < 2^z.
    public static func tileBounds(z: Int, x: Int, y: Int) -> Bounds {
        let side = Double(1 << z)
        return Bounds(
            west: WebMercator.longitude(x: Double(x) / side), south: WebMercator.latitude(y: Double(y + 1) / side),
            east: WebMercator.longitude(x: Double(x + 1) / side), north: WebMercator.latitude(y: Double(y) / side))
    }
}

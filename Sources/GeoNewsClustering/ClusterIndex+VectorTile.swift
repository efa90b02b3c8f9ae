import GeoNewsJSON

extension ClusterIndex {
    /// The extent of the vector tiles ``vectorTile(z:x:y:ids:names:layerName:)`` writes: the
    /// spec's customary 4096 units across a tile.
    public static let vectorTileExtent = 4096

    /// Tile (z, x, y) as a Mapbox Vector Tile 2.1: one layer of points, the clusters and lone
    /// points of ``tile(z:x:y:tileExtent:)`` with a buffer around the tile, on a 4096-unit grid.
    ///
    /// Properties are those of ``featureCollection(_:ids:names:abbreviatedCounts:)`` with
    /// abbreviated counts: a cluster has `cluster` (true), `cluster_id`, `point_count`,
    /// `point_count_abbreviated` (a number below 1000, else text such as `3.2k`),
    /// `expansion_zoom` and `members` (a vector tile value cannot be a list, so it is the JSON
    /// array text of the member ids); a lone point has `id` and, when known, `name`. A cluster's
    /// feature id is its cluster id. An empty tile is zero bytes, as the spec allows.
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
        let features = try tile(z: z, x: x, y: y, tileExtent: Double(Self.vectorTileExtent))
        var layer = VectorTileLayer(name: layerName, extent: UInt32(Self.vectorTileExtent))
        for f in features {
            switch f.kind {
            case .cluster(let id):
                let members = try leaves(of: id, limit: .max).map { JSONString.quoted(ids[$0]) }
                let abbreviated: VectorTileLayer.Value = f.pointCount < 1000
                    ? .unsigned(UInt64(f.pointCount)) : .string(String(Self.abbreviated(f.pointCount).dropFirst().dropLast()))
                layer.addPoint(x: f.x, y: f.y, id: id.rawValue, properties: [
                    ("cluster", .bool(true)), ("cluster_id", .unsigned(id.rawValue)),
                    ("point_count", .unsigned(UInt64(f.pointCount))), ("point_count_abbreviated", abbreviated),
                    ("expansion_zoom", .unsigned(UInt64(try expansionZoom(of: id)))),
                    ("members", .string("[" + members.joined(separator: ",") + "]")),
                ])
            case .point(let p):
                var properties: [(String, VectorTileLayer.Value)] = [("id", .string(ids[p]))]
                if let name = names[p] { properties.append(("name", .string(name))) }
                layer.addPoint(x: f.x, y: f.y, id: nil, properties: properties)
            }
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
        return Bounds(west: WebMercator.longitude(x: Double(x) / side), south: WebMercator.latitude(y: Double(y + 1) / side),
                      east: WebMercator.longitude(x: Double(x + 1) / side), north: WebMercator.latitude(y: Double(y) / side))
    }
}

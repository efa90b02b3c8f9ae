import GeoNewsJSON

extension ClusterIndex {
    /// `features` as an RFC 7946 FeatureCollection of Points, in one line of JSON: what
    /// `geonews cluster` prints and what a cluster query over HTTP answers.
    ///
    /// A cluster's properties are `cluster: true`, `cluster_id` (its ``ClusterID`` raw value),
    /// `point_count`, `expansion_zoom` (the zoom at which it splits) and `members` (the ids of
    /// all its points, in ``leaves(of:limit:offset:)`` order); a lone point's are its `id` and,
    /// when known, its `name`. Coordinates are `[longitude, latitude]` in degrees, written
    /// with Swift's shortest round-trip form.
    ///
    /// - Parameters:
    ///   - features: the answer of ``clusters(in:zoom:)`` on this index.
    ///   - ids: one id per input point, indexed like ``points``.
    ///   - names: one optional display name per input point, indexed like ``points``.
    /// - Throws: ``ClusterIndexError/unknownCluster(_:)`` when a feature is not from this index.
    public func featureCollection(
        _ features: [ClusterFeature], ids: [String], names: [String?]
    ) throws(ClusterIndexError) -> String {
        var out = #"{"type":"FeatureCollection","features":["#
        for (i, f) in features.enumerated() {
            if i > 0 { out += "," }
            out += #"{"type":"Feature","geometry":{"type":"Point","coordinates":["#
            out += "\(f.coordinate.longitude),\(f.coordinate.latitude)]},\"properties\":{"
            switch f.kind {
            case .cluster(let id):
                let members = try leaves(of: id, limit: .max).map { JSONString.quoted(ids[$0]) }
                out += "\"cluster\":true,\"cluster_id\":\(id.rawValue),\"point_count\":\(f.pointCount),"
                out += "\"expansion_zoom\":\(try expansionZoom(of: id)),\"members\":[\(members.joined(separator: ","))]"
            case .point(let p):
                out += "\"id\":\(JSONString.quoted(ids[p]))"
                if let name = names[p] { out += ",\"name\":\(JSONString.quoted(name))" }
            }
            out += "}}"
        }
        return out + "]}"
    }
}

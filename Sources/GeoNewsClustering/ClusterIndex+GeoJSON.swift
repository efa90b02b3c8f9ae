import GeoNewsJSON

extension ClusterIndex {
    /// The most points a cluster may have and still list them all in its `members` property.
    /// A larger cluster has no `members`: its points are paged with ``leaves(of:limit:offset:)``
    /// (`/v1/clusters/{id}/leaves` over HTTP). Without this limit a cluster's answer grew with
    /// the dataset: at zoom 0, one cluster of 200,000 points was 1.89 MB.
    public static let listedMembersLimit = 100

    /// `features` as an RFC 7946 FeatureCollection of Points, in one line of JSON: what
    /// `geonews cluster` prints and what a cluster query over HTTP answers.
    ///
    /// A cluster's Feature has a top-level `id`, its ``ClusterID`` raw value as supercluster
    /// gives it; its properties are `cluster: true`, `cluster_id` (the same number),
    /// `point_count`, `expansion_zoom` (the zoom at which it splits) and, for a cluster of at
    /// most ``listedMembersLimit`` points, `members` (the ids of all its points, in
    /// ``leaves(of:limit:offset:)`` order). A lone point's properties are its `id` and, when
    /// known, its `name`. Coordinates are `[longitude, latitude]` in degrees, written with
    /// Swift's shortest round-trip form.
    ///
    /// With `maximumBytes`, features are written in order while the collection stays within
    /// it; when some are left out, the collection gets the foreign member `omitted` (RFC 7946
    /// §6.1), their number. Only past ``ClusterOptions/maxZoom``, or over a wide box at a high
    /// zoom, do so many features share one answer.
    ///
    /// - Parameters:
    ///   - features: the answer of ``clusters(in:zoom:)`` on this index.
    ///   - ids: one id per input point, indexed like ``points``.
    ///   - names: one optional display name per input point, indexed like ``points``.
    ///   - abbreviatedCounts: also write supercluster's `point_count_abbreviated` on clusters
    ///     (`950`, `3.2k`, `12k`, `1.5M`), which its Leaflet demo draws; the HTTP API does.
    ///   - maximumBytes: the most UTF-8 bytes the collection may take; no limit by default.
    /// - Throws: ``ClusterIndexError/unknownCluster(_:)`` when a feature is not from this index.
    public func featureCollection(
        _ features: [ClusterFeature], ids: [String], names: [String?], abbreviatedCounts: Bool = false,
        maximumBytes: Int = .max
    ) throws(ClusterIndexError) -> String {
        try featureCollection(
            features, labels: PointLabelArrays(ids: ids, names: names), abbreviatedCounts: abbreviatedCounts,
            maximumBytes: maximumBytes)
    }

    /// ``featureCollection(_:ids:names:abbreviatedCounts:maximumBytes:)`` with the points' ids
    /// and names from `labels`.
    public func featureCollection(
        _ features: [ClusterFeature], labels: some PointLabels, abbreviatedCounts: Bool = false,
        maximumBytes: Int = .max
    ) throws(ClusterIndexError) -> String {
        var collection = #"{"type":"FeatureCollection","features":["#
        // Room kept for the end, `],"omitted":N}` at most.
        let budget = maximumBytes == .max ? .max : maximumBytes - 32
        for (i, f) in features.enumerated() {
            var out = ""
            if i > 0 { out += "," }
            out += #"{"type":"Feature","#
            if case .cluster(let id) = f.kind { out += "\"id\":\(id.rawValue)," }
            out += #""geometry":{"type":"Point","coordinates":["#
            out += "\(f.coordinate.longitude),\(f.coordinate.latitude)]},\"properties\":{"
            switch f.kind {
            case .cluster(let id):
                out += "\"cluster\":true,\"cluster_id\":\(id.rawValue),\"point_count\":\(f.pointCount),"
                if abbreviatedCounts { out += "\"point_count_abbreviated\":\(Self.abbreviated(f.pointCount))," }
                out += "\"expansion_zoom\":\(try expansionZoom(of: id))"
                if let members = try listedMembers(of: id, pointCount: f.pointCount, labels: labels) { out += ",\"members\":\(members)" }
            case .point(let p):
                out += "\"id\":\(JSONString.quoted(labels.id(ofPoint: p)))"
                if let name = labels.name(ofPoint: p) { out += ",\"name\":\(JSONString.quoted(name))" }
            }
            out += "}}"
            guard collection.utf8.count + out.utf8.count <= budget else {
                return collection + "],\"omitted\":\(features.count - i)}"
            }
            collection += out
        }
        return collection + "]}"
    }

    /// The JSON array of a cluster's member ids, or `nil` when it has more than
    /// ``listedMembersLimit`` points.
    func listedMembers(of id: ClusterID, pointCount: Int, labels: some PointLabels) throws(ClusterIndexError) -> String? {
        guard pointCount <= Self.listedMembersLimit else { return nil }
        let members = try leaves(of: id, limit: Self.listedMembersLimit).map { JSONString.quoted(labels.id(ofPoint: $0)) }
        return "[" + members.joined(separator: ",") + "]"
    }

    /// supercluster's `point_count_abbreviated`, as a JSON value: the count itself below 1000,
    /// thousands with one decimal below 10,000 (`"3.2k"`), whole thousands above (`"12k"`,
    /// `"1500k"`), rounded as JavaScript's `Math.round` does.
    static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\"\(Int((Double(count) / 1000).rounded()))k\"" }
        if count >= 1000 {
            let tenths = Int((Double(count) / 100).rounded())
            return tenths % 10 == 0 ? "\"\(tenths / 10)k\"" : "\"\(tenths / 10).\(tenths % 10)k\""
        }
        return String(count)
    }
}

import Foundation
import GeoNewsClustering
import GeoNewsGeodesy

/// The whole answer to a fuzzed cluster query, as `GET /v1/clusters` and `geonews cluster`
/// build it: the text is read as a query string (`altitude=1e308km&viewport=390x844`), then
/// ``ClusterQuery`` reads its arguments, the index gives the clusters in the query's box at
/// its zoom, and they become the GeoJSON FeatureCollection, with the query's `origin`.
///
/// Either the query is refused with a message, or every later step finishes (no trap, no
/// error from the index) with a finite zoom and box, a FeatureCollection that parses with one
/// feature per item, and an origin that states the zoom or the altitude given.
enum ClusterAnswerProperties {
    /// 600 points: a spiral over the globe, a tight group near Paris that clusters at every
    /// zoom, and pairs astride the antimeridian and at the map's top and bottom edges.
    static let points: [Coordinate] = {
        var points: [Coordinate] = []
        for i in 0..<500 {
            let t = Double(i) / 500
            points.append(Coordinate(latitude: 170 * t - 85, longitude: (Double(i) * 137.508).truncatingRemainder(dividingBy: 360) - 180))
        }
        for i in 0..<94 { points.append(Coordinate(latitude: 48.85 + Double(i % 7) * 1e-4, longitude: 2.35 + Double(i / 7) * 1e-4)) }
        points += [(0, 179.999), (0, -179.999), (89.9, 0), (-89.9, 0), (90, 180), (-90, -180)].map {
            Coordinate(latitude: $0.0, longitude: $0.1)
        }
        return points
    }()

    static let ids = points.indices.map { "p\($0)" }
    static let names: [String?] = points.indices.map { $0 % 3 == 0 ? "n\"\\\u{1}é\($0)" : nil }

    static let index: ClusterIndex = {
        do { return try ClusterIndex(points: points) } catch { violated("the fuzz index cannot be built: \(error)") }
    }()

    static func check(_ text: String) {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, !parts[1].isEmpty { fields[String(parts[0])] = String(parts[1]) }
        }
        guard !fields.isEmpty else { return }
        let tileSize = fields["tileSize"].map { Int($0) ?? 0 } ?? 512
        let query: ClusterQuery
        do {
            query = try ClusterQuery(
                zoom: fields["zoom"], altitude: fields["altitude"], bbox: fields["bbox"],
                center: fields["center"], viewport: fields["viewport"] ?? "390x844", tileSize: tileSize)
        } catch {
            if error.description.isEmpty { violated("cluster query '\(text)': a refusal without a message") }
            return
        }
        let b = query.bounds
        guard query.zoom.isFinite, [b.west, b.south, b.east, b.north].allSatisfy(\.isFinite), b.south <= b.north else {
            violated("cluster query '\(text)': zoom \(query.zoom) or box \(b) is not usable")
        }
        let features: [ClusterFeature]
        let json: String
        do {
            features = try index.clusters(in: b, zoom: query.zoom)
            json = try index.featureCollection(features, ids: ids, names: names, abbreviatedCounts: true)
        } catch {
            violated("cluster query '\(text)' was accepted, then the index refused it: \(error)")
        }
        guard let collection = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            collection["type"] as? String == "FeatureCollection",
            (collection["features"] as? [Any])?.count == features.count
        else {
            violated("cluster query '\(text)': the answer is not a FeatureCollection of \(features.count) features")
        }
        if let altitude = fields["altitude"] {
            guard query.origin.hasPrefix("altitude "), query.origin.contains(" → zoom "), fields["zoom"] == nil else {
                violated("cluster query '\(text)': origin '\(query.origin)' does not state altitude \(altitude)")
            }
        } else if let zoom = fields["zoom"], query.origin != "zoom \(zoom)" {
            violated("cluster query '\(text)': origin '\(query.origin)' does not state zoom \(zoom)")
        }
    }
}

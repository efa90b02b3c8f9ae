import GeoNewsClustering
import GeoNewsGeodesy

/// The query-text parsers over fuzzed text: what they accept is usable and within its named
/// limits, and every refusal quotes the text as it was given. The same text, read as a query
/// string, then drives a whole cluster answer (``ClusterAnswerProperties``).
enum QueryTextProperties {
    static func check(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        expect(
            "bbox", text, { () throws(ClusterQueryError) in try ClusterQueryText.bounds(text) },
            valid: { b in
                [b.west, b.south, b.east, b.north].allSatisfy(\.isFinite) && b.south <= b.north
            })
        expect(
            "center", text, { () throws(ClusterQueryError) in try ClusterQueryText.center(text) },
            valid: { c in
                abs(c.latitude) <= 90 && abs(c.longitude) <= 180
            })
        expect(
            "viewport", text, { () throws(ClusterQueryError) in try ClusterQueryText.viewport(text) },
            valid: { v in
                [v.width, v.height].allSatisfy(ClusterQueryText.within(ClusterQueryText.viewportSide))
            })
        expect(
            "zoom", text, { () throws(ClusterQueryError) in try ClusterQueryText.zoom(text) },
            valid: {
                ClusterQueryText.within(ClusterQueryText.zoomRange)($0)
            })
        expect(
            "altitude", text, { () throws(CameraAltitudeError) in try CameraAltitude(parsing: text) },
            valid: { a in
                CameraAltitude.parsedMetres.contains(a.metres) && a.zoom(latitude: 0, viewportHeight: 844, tileSize: 512).isFinite
                    && !"\(a)".isEmpty
            })
        expect(
            "latitude", text, { () throws(CoordinateInputError) in try Coordinate(parsingLatitude: text, longitude: "0") },
            valid: {
                abs($0.latitude) <= 90
            })
        ClusterAnswerProperties.check(text)
    }

    private static func expect<Value, Failure: Error & CustomStringConvertible>(
        _ what: String, _ text: String, _ parse: () throws(Failure) -> Value, valid: (Value) -> Bool
    ) {
        do {
            let value = try parse()
            if !valid(value) { violated("\(what): '\(text)' gave an unusable \(value)") }
        } catch {
            if !text.isEmpty, !error.description.contains(text) {
                violated("\(what): the message \"\(error.description)\" does not quote '\(text)'")
            }
        }
    }
}

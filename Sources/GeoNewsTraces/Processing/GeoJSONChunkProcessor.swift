import GeoNewsBoundaries
import GeoNewsGeodesy

/// Resolves the Features of a GeoJSON FeatureCollection: every vertex of a Point, MultiPoint or
/// LineString is one record.
///
/// GeoJSON to GeoJSON keeps each Feature with all its members verbatim and adds the resolved
/// keys to its `properties`: for a Point (or a feature that could not be read) the scalar
/// columns (`country_iso2`, …, `error`); for a LineString or MultiPoint arrays parallel to
/// `coordinates` under their own names (`vertex_country_iso2`, …, `vertex_error`). A name
/// never holds a scalar in one feature and an array in another: GIS readers (OGR, fiona) type
/// a property once per layer and drop the values of the other type.
/// To CSV or NDJSON, each vertex becomes a row with `feature,vertex,lat,lon,time,trace_id`
/// and the feature's original `properties` object.
struct GeoJSONChunkProcessor: Sendable {
    let resolver: any CountryResolving
    let output: RecordFormat
    let followsTraces: Bool
    let keys: JSONRecordKeys
    let columns: ResolvedColumns

    static let flatNames = ["feature", "vertex", "lat", "lon", "time", "trace_id", "properties"]
    static let vertexTimeKeys = ["coordTimes", "coordinateTimes", "times"]

    func header() -> String {
        output == .csv ? FlatRecordWriter(format: .csv, names: Self.flatNames, columns: columns).csvHeader() : ""
    }

    func process(_ features: [FeatureText]) -> ProcessedChunk {
        let out = OutputChunk(capacity: features.reduce(0) { $0 + $1.bytes.count } * 2 + 1024)
        var tally = ChunkTally(followsTraces: followsTraces)
        for feature in features {
            feature.bytes.withUnsafeBufferPointer { b in
                process(feature, JSONScanner(b), &tally, out)
            }
        }
        tally.finish()
        return ProcessedChunk(output: out, tally: tally, inputBytes: features.reduce(0) { $0 + $1.bytes.count })
    }

    private struct Vertex {
        var lat: Range<Int>?
        var lon: Range<Int>?
        var time: Range<Int>?
        var outcome: Result<Resolution, RecordFailure>
    }

    private func process(_ feature: FeatureText, _ s: JSONScanner, _ tally: inout ChunkTally, _ out: OutputChunk) {
        var members: [(key: Range<Int>, value: Range<Int>)] = []
        var geometry: Range<Int>?, properties: Range<Int>?, id: Range<Int>?
        func failure(_ reason: String) -> RecordFailure { RecordFailure(line: feature.line, "feature \(feature.index): \(reason)") }
        var featureError: RecordFailure?
        var vertices: [Vertex] = []
        var geometryType = ""
        let first = s.skipSpace(0)
        do throws(JSONScanError) {
            guard first < s.bytes.count, s.bytes[first] == UInt8(ascii: "{") else {
                let shown = String(decoding: UnsafeBufferPointer(rebasing: s.bytes[first...].prefix(40)), as: UTF8.self)
                featureError = failure("not a JSON object: \(shown)")
                throw .truncated  // the reason is already set
            }
            try s.members(of: first) { (k, v) throws(JSONScanError) in
                members.append((k, v))
                if s.key(k, isOneOf: ["geometry"]) {
                    geometry = v
                } else if s.key(k, isOneOf: ["properties"]) {
                    properties = v
                } else if s.key(k, isOneOf: ["id"]) {
                    id = v
                }
            }
            if let g = geometry, !s.isNull(g) {
                var coordinates: Range<Int>?
                try s.members(of: g.lowerBound) { (k, v) throws(JSONScanError) in
                    if s.key(k, isOneOf: ["type"]) { geometryType = s.text(v) }
                    if s.key(k, isOneOf: ["coordinates"]) { coordinates = v }
                }
                if let coordinates {
                    switch geometryType {
                    case "Point":
                        vertices.append(try vertex(coordinates, s))
                    case "LineString", "MultiPoint":
                        try s.elements(of: coordinates.lowerBound) { (v) throws(JSONScanError) in vertices.append(try vertex(v, s)) }
                    default:
                        featureError = failure("geometry type \(geometryType) is not Point, MultiPoint or LineString")
                    }
                } else {
                    featureError = failure("the geometry has no coordinates")
                }
            } else {
                featureError = failure("no geometry")
            }
        } catch {
            if featureError == nil { featureError = failure(error.description) }
        }
        // A LineString or MultiPoint of no positions still comes out, as one error row: every
        // feature in is a row out.
        if featureError == nil, vertices.isEmpty {
            featureError = failure("the \(geometryType) has no positions")
        }

        // Times: a Point's `time`, or a per-vertex array such as `coordTimes`.
        var traceRange: Range<Int>?
        if let p = properties, !s.isNull(p), s.bytes[p.lowerBound] == UInt8(ascii: "{") {
            _ = try? s.members(of: p.lowerBound) { (k, v) throws(JSONScanError) in
                if s.key(k, isOneOf: keys.trace), traceRange == nil { traceRange = v }
                if vertices.count == 1, geometryType == "Point", s.key(k, isOneOf: keys.time) { vertices[0].time = v }
                if s.key(k, isOneOf: Self.vertexTimeKeys), s.bytes[v.lowerBound] == UInt8(ascii: "[") {
                    var i = 0
                    try s.elements(of: v.lowerBound) { (t) throws(JSONScanError) in
                        if i < vertices.count { vertices[i].time = t }
                        i += 1
                    }
                }
            }
        }
        let traceText: String = traceRange.map { s.text($0) } ?? id.map { s.text($0) } ?? "feature \(feature.index)"

        for i in vertices.indices {
            guard let lat = vertices[i].lat, let lon = vertices[i].lon else {
                vertices[i].outcome = .failure(failure("vertex \(i + 1): a position needs [longitude, latitude]"))
                continue
            }
            switch CoordinateText.coordinate(latitude: s.unquotedBytes(lat), longitude: s.unquotedBytes(lon)) {
            case .success(let c): vertices[i].outcome = .success(resolver.resolve(c))
            case .failure(let reason): vertices[i].outcome = .failure(failure("vertex \(i + 1): \(reason.text)"))
            }
        }
        if let featureError {
            vertices = [Vertex(lat: nil, lon: nil, time: nil, outcome: .failure(featureError))]
        }
        var trace = traceText
        trace.withUTF8 { traceBytes in
            for v in vertices {
                switch v.outcome {
                case .success(let r):
                    // A Point with neither a time nor a trace id is a place, not a fix of a journey.
                    let inJourney = geometryType != "Point" || traceRange != nil || v.time != nil
                    tally.countResolved(r, trace: traceBytes, time: v.time.map { s.unquotedBytes($0) }, inJourney: inJourney)
                case .failure: tally.countError()
                }
            }
        }

        if output == .geojson {
            writeFeature(
                members: members, properties: properties, vertices: vertices,
                scalar: geometryType == "Point" || featureError != nil, s, out)
            return
        }
        let writer = FlatRecordWriter(format: output, names: Self.flatNames, columns: columns)
        let props: FieldValue =
            properties.map { .json(String(decoding: UnsafeBufferPointer(rebasing: s.bytes[$0]), as: UTF8.self)) } ?? .absent
        for (i, v) in vertices.enumerated() {
            let text: (Range<Int>?) -> FieldValue = { $0.map { .text(s.text($0)) } ?? .absent }
            writer.write(
                [.text(String(feature.index)), .text(String(i + 1)), text(v.lat), text(v.lon), text(v.time), .text(traceText), props],
                outcome: v.outcome, to: out)
        }
    }

    /// Reads `[lon, lat, …]`; a malformed position becomes that vertex's error.
    private func vertex(_ range: Range<Int>, _ s: JSONScanner) throws(JSONScanError) -> Vertex {
        var parts: [Range<Int>] = []
        if s.bytes[range.lowerBound] == UInt8(ascii: "[") {
            try s.elements(of: range.lowerBound) { parts.append($0) }
        }
        guard parts.count >= 2 else {
            return Vertex(lat: nil, lon: nil, time: nil, outcome: .failure(RecordFailure(line: 0, "")))
        }
        return Vertex(lat: parts[1], lon: parts[0], time: nil, outcome: .failure(RecordFailure(line: 0, "")))
    }

    private func writeFeature(
        members: [(key: Range<Int>, value: Range<Int>)], properties: Range<Int>?, vertices: [Vertex],
        scalar: Bool, _ s: JSONScanner, _ out: OutputChunk
    ) {
        out.append(",\n{")
        // An element that was not an object still comes out as a Feature, with its error.
        if members.isEmpty { out.append("\"type\":\"Feature\",\"geometry\":null,") }
        for (k, v) in members where !s.key(k, isOneOf: ["properties"]) {
            out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(s.bytes)[k]))
            out.append(UInt8(ascii: ":"))
            out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(s.bytes)[v]))
            out.append(UInt8(ascii: ","))
        }
        out.append("\"properties\":{")
        if let p = properties, !s.isNull(p) {
            _ = try? s.members(of: p.lowerBound) { (k, v) throws(JSONScanError) in
                out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(s.bytes)[k.lowerBound..<v.upperBound]))
                out.append(UInt8(ascii: ","))
            }
        }
        if scalar, let v = vertices.first {
            switch v.outcome {
            case .success(let r): columns.appendJSON(r, to: out)
            case .failure(let f): columns.appendJSONError(f.message, to: out)
            }
        } else {
            appendArrays(vertices, out)
        }
        out.append("}}")
    }

    /// Prefix of the per-vertex array properties.
    static let vertexPrefix = "vertex_"

    /// The resolved keys as arrays named `vertex_…`, one element per vertex.
    private func appendArrays(_ vertices: [Vertex], _ out: OutputChunk) {
        // Each vertex's nearest place and region, found once for their columns.
        let extras: [ResolvedColumns.Extras] =
            columns.places == nil && columns.regions == nil
            ? [] : vertices.map { v in if case .success(let r) = v.outcome { columns.extras(for: r) } else { .init() } }
        for (k, column) in columns.columns.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(Self.vertexPrefix + column.rawValue, to: out)
            out.append(":[")
            for (i, v) in vertices.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                switch v.outcome {
                case .success(let r): columns.append(column, of: r, extras: extras.isEmpty ? .init() : extras[i], json: true, to: out)
                case .failure(let f) where column == .error: JSONText.appendQuoted(f.message, to: out)
                case .failure: out.append("null")
                }
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

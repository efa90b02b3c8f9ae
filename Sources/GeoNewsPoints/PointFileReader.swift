import GeoNewsGeodesy
import GeoNewsTraces

/// Fills a ``PointFile`` from the batch readers' chunks (CSV) or features (GeoJSON).
struct PointFileReader {
    let name: String
    private(set) var points = PointFile()

    init(name: String) { self.name = name }

    private static let chunkBytes = 512 * 1024
    private static let maxRecordBytes = 1 << 20

    // MARK: CSV

    mutating func readCSV(_ source: ByteSource) throws(BatchResolveError) {
        let reader = DelimitedChunkReader(
            source: source, quoteAware: true, chunkBytes: Self.chunkBytes, maxRecordBytes: Self.maxRecordBytes)
        var layout: (latitude: Int, longitude: Int, id: Int?, name: Int?)?
        while let chunk = try reader.next() {
            if let reason = chunk.unreadableReason { throw .usage("\(name) line \(chunk.firstLine): \(reason)") }
            try chunk.bytes.withUnsafeBufferPointer { (b) throws(BatchResolveError) in
                var cursor = CSVRecordCursor(b)
                var fields: [CSVField] = []
                var line = chunk.firstLine
                while let record = cursor.next(fields: &fields) {
                    let recordLine = line
                    line += record.lines
                    if let problem = record.problem { throw .usage("\(name) line \(recordLine): \(problem.description)") }
                    let texts = fields.map { cursor.text($0).trimmingSpaces }
                    if texts.allSatisfy(\.isEmpty) || texts[0].hasPrefix("#") { continue }
                    if let columns = layout {
                        try append(texts, columns, line: recordLine)
                        continue
                    }
                    let columns = try Self.layout(firstRecord: texts, line: recordLine, name: name)
                    layout = columns
                    // Without a header the first record is already a point.
                    if Double(texts[0]) != nil { try append(texts, columns, line: recordLine) }
                }
            }
        }
    }

    /// The columns from a header, or latitude and longitude first when the first field is a
    /// number (no header).
    private static func layout(
        firstRecord texts: [String], line: Int, name: String
    ) throws(BatchResolveError) -> (latitude: Int, longitude: Int, id: Int?, name: Int?) {
        guard Double(texts[0]) == nil else { return (0, 1, nil, nil) }
        let names = texts.map { $0.lowercased() }
        guard let lat = names.firstIndex(where: { CSVLayout.latitudeNames.contains($0) }),
            let lon = names.firstIndex(where: { CSVLayout.longitudeNames.contains($0) })
        else {
            throw .usage("\(name) line \(line): header has no lat and lon columns (found: \(texts.joined(separator: ",")))")
        }
        return (lat, lon, names.firstIndex(of: "id"), names.firstIndex(of: "name"))
    }

    private mutating func append(
        _ texts: [String], _ columns: (latitude: Int, longitude: Int, id: Int?, name: Int?), line: Int
    ) throws(BatchResolveError) {
        guard texts.count > max(columns.latitude, columns.longitude) else {
            throw .usage("\(name) line \(line): expected a latitude and a longitude, got '\(texts.joined(separator: ","))'")
        }
        let coordinate: Coordinate
        if let lat = Self.plainDecimal(texts[columns.latitude]), let lon = Self.plainDecimal(texts[columns.longitude]),
            let valid = try? Coordinate.validated(latitude: lat, longitude: lon)
        {
            coordinate = valid
        } else {
            do {
                coordinate = try Coordinate(parsingLatitude: texts[columns.latitude], longitude: texts[columns.longitude])
            } catch {
                throw .usage("\(name) line \(line): \(error)")
            }
        }
        points.coordinates.append(coordinate)
        points.ids.append(columns.id.flatMap { $0 < texts.count ? texts[$0] : nil } ?? String(points.coordinates.count - 1))
        points.names.append(columns.name.flatMap { $0 < texts.count ? texts[$0] : nil })
    }

    /// The value of a plain decimal such as `-12.345678` (an optional minus, digits, an optional
    /// fraction; no leading or trailing dot), read from its bytes; `nil` for any other text,
    /// which then goes to the full degree parser. Both round correctly, so a plain decimal gives the same coordinate either
    /// way; this path only skips the full parser's string work, most of an upload's time.
    static func plainDecimal(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { bytes -> Double? in
            var i = bytes.first == UInt8(ascii: "-") ? 1 : 0
            var digits = 0, dots = 0
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
                case UInt8(ascii: ".") where dots == 0: dots += 1
                default: return nil
                }
                i += 1
            }
            let first = bytes.first == UInt8(ascii: "-") ? 1 : 0
            guard digits > 0, first < bytes.count, bytes[first] != UInt8(ascii: "."), bytes.last != UInt8(ascii: ".") else { return nil }
            return DecimalParser.parse(bytes)
        }
    }

    // MARK: GeoJSON

    mutating func readGeoJSON(_ source: ByteSource) throws(BatchResolveError) {
        let reader = GeoJSONFeatureReader(source: source, chunkBytes: Self.chunkBytes)
        var read = 0
        while let features = try reader.next() {
            read += features.count
            for feature in features {
                try feature.bytes.withUnsafeBufferPointer { (b) throws(BatchResolveError) in
                    try append(feature, JSONScanner(b))
                }
            }
        }
        // Text with no JSON object in it yields no feature at all; it must not pass as an
        // empty collection.
        if read == 0, !reader.foundFeatureArray {
            throw .usage("\(name): not GeoJSON: expected a FeatureCollection with a \"features\" array, or a Feature")
        }
    }

    /// One Point feature; numbered from 0 in messages and default ids.
    private mutating func append(_ feature: FeatureText, _ s: JSONScanner) throws(BatchResolveError) {
        let number = feature.index - 1
        let notAPoint = BatchResolveError.usage("\(name): feature \(number) is not a Point with [longitude, latitude]")
        var geometry: Range<Int>?, properties: Range<Int>?, id: Range<Int>?
        var type = "", position: [Range<Int>] = []
        var isObjectGeometry = false
        do throws(JSONScanError) {
            try s.members(of: s.skipSpace(0)) { (k, v) throws(JSONScanError) in
                if s.key(k, isOneOf: ["geometry"]) {
                    geometry = v
                } else if s.key(k, isOneOf: ["properties"]) {
                    properties = v
                } else if s.key(k, isOneOf: ["id"]) {
                    id = v
                }
            }
            if let g = geometry, s.bytes[g.lowerBound] == UInt8(ascii: "{") {
                isObjectGeometry = true
                try s.members(of: g.lowerBound) { (k, v) throws(JSONScanError) in
                    if s.key(k, isOneOf: ["type"]) { type = s.text(v) }
                    if s.key(k, isOneOf: ["coordinates"]), s.bytes[v.lowerBound] == UInt8(ascii: "[") {
                        try s.elements(of: v.lowerBound) { position.append($0) }
                    }
                }
            }
        } catch {
            throw notAPoint
        }
        let numbers = position.prefix(2).map {
            s.bytes[$0.lowerBound] == UInt8(ascii: "\"") ? nil : DecimalParser.parse(UnsafeBufferPointer(rebasing: s.bytes[$0]))
        }
        guard isObjectGeometry, type == "Point", numbers.count == 2, let lon = numbers[0], let lat = numbers[1] else { throw notAPoint }
        do {
            points.coordinates.append(try Coordinate.validated(latitude: lat, longitude: lon))
        } catch {
            throw .usage("\(name): feature \(number): \(error)")
        }
        var idText: String?, nameText: String?
        if let p = properties, s.bytes[p.lowerBound] == UInt8(ascii: "{") {
            _ = try? s.members(of: p.lowerBound) { (k, v) throws(JSONScanError) in
                if s.key(k, isOneOf: ["id"]), !s.isNull(v) { idText = s.text(v) }
                if s.key(k, isOneOf: ["name"]), s.bytes[v.lowerBound] == UInt8(ascii: "\"") { nameText = s.text(v) }
            }
        }
        if let id, !s.isNull(id) { idText = s.text(id) }
        points.ids.append(idText ?? String(number))
        points.names.append(nameText)
    }
}

import GeoNewsGeodesy

/// Which keys of a JSON record hold the latitude, longitude, time and trace id.
struct JSONRecordKeys: Sendable {
    var latitude: [String]
    var longitude: [String]
    var time: [String]
    var trace: [String]

    init(options: BatchResolveOptions) throws(BatchResolveError) {
        func names(_ selector: ColumnSelector?, _ defaults: [String], flag: String) throws(BatchResolveError) -> [String] {
            switch selector {
            case nil: return defaults
            case .name(let n): return [n]
            case .position(let p): throw .usage("\(flag) \(p): JSON records have keys, not column positions; give a key name")
            }
        }
        latitude = try names(options.latitudeColumn, CSVLayout.latitudeNames, flag: "--lat-col")
        longitude = try names(options.longitudeColumn, CSVLayout.longitudeNames, flag: "--lon-col")
        time = try names(options.timeColumn, CSVLayout.timeNames, flag: "--time-col")
        trace = try names(options.traceColumn, CSVLayout.traceNames, flag: "--trace-col")
    }

    /// The top-level members of one record, as ranges into its line.
    struct Found {
        var isObject = false
        var isEmptyObject = true
        var closingBrace = 0
        var latitude: Range<Int>?
        var longitude: Range<Int>?
        var time: Range<Int>?
        var trace: Range<Int>?
        var all: [(key: Range<Int>, value: Range<Int>)] = []

        func timeBytes(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
            guard let time, !JSONScanner(line).isNull(time) else { return nil }
            return JSONScanner(line).unquotedBytes(time)
        }

        func traceBytes(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            guard let trace else { return UnsafeBufferPointer(start: nil, count: 0) }
            return JSONScanner(line).unquotedBytes(trace)
        }
    }

    /// Finds the members of the object on `scanner`'s line and reads its position.
    func read(_ scanner: JSONScanner, into found: inout Found) -> Result<Coordinate, ReasonText> {
        let start = scanner.skipSpace(0)
        guard scanner.bytes[start] == UInt8(ascii: "{") else {
            return .failure(ReasonText("not a JSON object (NDJSON needs one object per line)"))
        }
        do throws(JSONScanError) {
            let end = try scanner.members(of: start) { (key, value) throws(JSONScanError) in
                found.isEmptyObject = false
                found.all.append((key, value))
                if found.latitude == nil, scanner.key(key, isOneOf: latitude) {
                    found.latitude = value
                } else if found.longitude == nil, scanner.key(key, isOneOf: longitude) {
                    found.longitude = value
                } else if found.time == nil, scanner.key(key, isOneOf: time) {
                    found.time = value
                } else if found.trace == nil, scanner.key(key, isOneOf: trace) {
                    found.trace = value
                }
            }
            let after = scanner.skipSpace(end)
            if after < scanner.bytes.count { throw JSONScanError.unexpected(byte: scanner.bytes[after], offset: after) }
            found.isObject = true
            found.closingBrace = end - 1
        } catch {
            return .failure(ReasonText(error.description))
        }
        guard let lat = found.latitude else { return .failure(ReasonText("no latitude key (\(latitude.joined(separator: ", ")))")) }
        guard let lon = found.longitude else { return .failure(ReasonText("no longitude key (\(longitude.joined(separator: ", ")))")) }
        if scanner.isNull(lat) { return .failure(ReasonText("latitude is null")) }
        if scanner.isNull(lon) { return .failure(ReasonText("longitude is null")) }
        return CoordinateText.coordinate(latitude: scanner.unquotedBytes(lat), longitude: scanner.unquotedBytes(lon))
    }
}

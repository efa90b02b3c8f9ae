/// Where the columns a batch run needs sit in a CSV record, worked out from the header (or
/// the options alone when there is none).
package struct CSVLayout: Sendable {
    /// Header names as written; empty without a header.
    package var names: [String]
    /// 0-based positions.
    package var latitude: Int
    package var longitude: Int
    package var time: Int?
    package var trace: Int?

    package static let latitudeNames = ["lat", "latitude"]
    package static let longitudeNames = ["lon", "lng", "long", "longitude"]
    package static let timeNames = ["time", "timestamp", "datetime"]
    package static let traceNames = ["trace_id", "trace", "track"]

    /// The layout for `header` (nil without one).
    ///
    /// - Throws: ``BatchResolveError/usage(_:)`` naming the header when a column cannot be found.
    package init(header: [String]?, options: BatchResolveOptions) throws(BatchResolveError) {
        names = header ?? []
        func find(_ selector: ColumnSelector?, _ defaults: [String], _ what: String, flag: String) throws(BatchResolveError) -> Int? {
            switch selector {
            case .position(let p)?:
                // Output rows are as wide as the furthest column named: bound it before any row is.
                guard p <= ColumnSelector.highestPosition else {
                    throw .usage("\(flag) \(p) is past column \(ColumnSelector.highestPosition), the last one read")
                }
                if let header, p > header.count {
                    throw .usage("\(flag) \(p) is past the last column: the header has \(header.count) (\(header.joined(separator: ",")))")
                }
                return p - 1
            case .name(let n)?:
                guard let header else { throw .usage("\(flag) \"\(n)\" names a column, but there is no header; give a 1-based position") }
                guard let i = header.firstIndex(where: { $0.lowercased() == n.lowercased() }) else {
                    throw .usage("no column \"\(n)\" for \(what) in the header: \(header.joined(separator: ","))")
                }
                return i
            case nil:
                guard let header else { return nil }
                return header.firstIndex { defaults.contains($0.trimmingSpaces.lowercased()) }
            }
        }
        let lat = try find(options.latitudeColumn, Self.latitudeNames, "latitude", flag: "--lat-col")
        let lon = try find(options.longitudeColumn, Self.longitudeNames, "longitude", flag: "--lon-col")
        if let header {
            guard let lat else {
                throw .usage("no latitude column (lat or latitude) in the header: \(header.joined(separator: ",")); use --lat-col")
            }
            guard let lon else {
                throw .usage(
                    "no longitude column (lon, lng, long or longitude) in the header: \(header.joined(separator: ",")); use --lon-col")
            }
            latitude = lat
            longitude = lon
        } else {
            latitude = lat ?? 0
            longitude = lon ?? 1
        }
        time = try find(options.timeColumn, Self.timeNames, "time", flag: "--time-col")
        trace = try find(options.traceColumn, Self.traceNames, "trace id", flag: "--trace-col")
    }

    /// Whether the records are fixes of traces: with a time or a trace column (found in the
    /// header or named by `--time-col`/`--trace-col`). Without one, a file of places (cities,
    /// say) is counted per country and makes no journey.
    package var isTrace: Bool { time != nil || trace != nil }

    /// Names for output formats that need one per field: the header, or `col1`, `col2`, … .
    package func name(ofField i: Int) -> String {
        i < names.count ? names[i] : "col\(i + 1)"
    }
}

extension String {
    package var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}

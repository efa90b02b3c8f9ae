import GeoNewsBoundaries
import GeoNewsData
import GeoNewsTraces

#if canImport(Glibc)
import Glibc
#endif

/// Batch resolution over fuzzed bytes: every record comes out as exactly one row (or one row
/// per GeoJSON vertex), in order, and every error row names a line of the input.
enum BatchProperties {
    static let resolver: CountryResolver = {
        do {
            return try CountryResolver.load(from: DataDirectory.locate(), options: .batch)
        } catch {
            violated("the Data directory cannot be loaded (set GEONEWS_DATA): \(error)")
        }
    }()

    /// Headerless CSV, latitude and longitude in columns 1 and 2, written as NDJSON.
    static func checkCSV(_ input: [UInt8]) {
        guard
            let run = run(
                input, .csv,
                {
                    $0.hasHeader = false; $0.latitudeColumn = .position(1); $0.longitudeColumn = .position(2)
                })
        else { return }
        // Without quotes a record is a line; blank lines are no records.
        if !input.contains(UInt8(ascii: "\"")) {
            let records = lines(of: input).filter { !$0.isEmpty && $0 != [0x0D] }.count
            if records != run.summary.recordsRead { violated("csv: \(records) records in, \(run.summary.recordsRead) read") }
        }
    }

    /// NDJSON written as NDJSON: a record is a line with anything but white space.
    static func checkNDJSON(_ input: [UInt8]) {
        guard let run = run(input, .ndjson, { _ in }) else { return }
        let records = lines(of: input).filter { $0.contains { ![0x20, 0x09, 0x0D].contains($0) } }.count
        if records != run.summary.recordsRead { violated("ndjson: \(records) records in, \(run.summary.recordsRead) read") }
    }

    /// GeoJSON written as NDJSON: features numbered 1, 2, 3… without a gap, vertices 1, 2, 3…
    /// within each.
    static func checkGeoJSON(_ input: [UInt8]) {
        guard let run = run(input, .geojson, { _ in }) else { return }
        var feature = 0, vertex = 0
        for row in run.rows {
            let featurePrefix = #"{"feature":""#.utf8.count
            guard let f = number(after: #"{"feature":""#, in: row),
                let v = number(after: #"","vertex":""#, in: row.dropFirst(featurePrefix + String(f).count))
            else {
                violated("geojson: a row without its feature and vertex number: \(String(decoding: row.prefix(80), as: UTF8.self))")
            }
            if f == feature + 1, v == 1 {
                feature = f
                vertex = 1
            } else if f == feature, v == vertex + 1 {
                vertex = v
            } else {
                violated("geojson: feature \(f) vertex \(v) follows feature \(feature) vertex \(vertex)")
            }
        }
    }

    /// GPX written as NDJSON: rows and counts agree, errors name lines.
    static func checkGPX(_ input: [UInt8]) {
        _ = run(input, .gpx, { _ in })
    }

    private struct Run {
        var rows: [ArraySlice<UInt8>]
        var summary: BatchSummary
    }

    /// Resolves `input` with small chunks on two workers and checks what every format
    /// shares; `nil` when the run refused the input as a whole (a usage error).
    private static func run(_ input: [UInt8], _ format: RecordFormat, _ configure: (inout BatchResolveOptions) -> Void) -> Run? {
        var options = BatchResolveOptions()
        options.inputFormat = format
        options.outputFormat = .ndjson
        options.followsTraces = true
        options.workerCount = 2
        options.chunkBytes = 4096
        configure(&options)
        let collected = CollectedBytes()
        let summary: BatchSummary
        do {
            summary = try BatchResolver(resolver: resolver, options: options)
                .run(inputs: [.bytes(input, name: "fuzz")], output: .memory(collected))
        } catch {
            if case .usage = error { return nil }
            violated("\(format): the run failed: \(error)")
        }
        let rows = lines(of: collected.bytes).filter { !$0.isEmpty }
        let s = summary
        if rows.count != s.recordsRead { violated("\(format): \(rows.count) rows out, \(s.recordsRead) records read") }
        if s.recordsResolved + s.recordsInError != s.recordsRead {
            violated("\(format): \(s.recordsResolved) resolved + \(s.recordsInError) in error ≠ \(s.recordsRead) read")
        }
        let inputLines = input.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        var resolved = 0
        for row in rows {
            guard let at = lastRange(of: #","error":"#, in: row) else { violated("\(format): a row without an error member") }
            let value = row[at.upperBound...]
            if value.elementsEqual(#"null}"#.utf8) { resolved += 1; continue }
            guard let line = number(after: #","error":"line "#, in: row[at.lowerBound...]),
                (1...inputLines).contains(line)
            else {
                violated("\(format): an error row that names no line of the input: \(String(decoding: value.prefix(100), as: UTF8.self))")
            }
        }
        if resolved != s.recordsResolved { violated("\(format): \(resolved) resolved rows, \(s.recordsResolved) counted") }
        return Run(rows: rows, summary: s)
    }

    static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { $0 }
    }

    /// The decimal number right after `prefix` at the start of `bytes`.
    static func number(after prefix: String, in bytes: ArraySlice<UInt8>) -> Int? {
        let p = Array(prefix.utf8)
        guard bytes.starts(with: p) else { return nil }
        let digits = bytes.dropFirst(p.count).prefix { $0 >= 48 && $0 <= 57 }
        guard !digits.isEmpty, digits.count < 12 else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    static func lastRange(of needle: String, in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return nil }
        var i = bytes.endIndex - n.count
        while i >= bytes.startIndex {
            if bytes[i..<(i + n.count)].elementsEqual(n) { return i..<(i + n.count) }
            i -= 1
        }
        return nil
    }
}

import GeoNewsBoundaries
import GeoNewsGeodesy

/// Resolves the records of one NDJSON chunk (one JSON object per line).
///
/// NDJSON to NDJSON keeps every key of the object verbatim, in order, and appends the resolved
/// keys before the closing brace. To CSV, each row carries `lat,lon,time,trace_id` and the whole
/// original object in a `record` column.
struct NDJSONChunkProcessor: Sendable {
    let keys: JSONRecordKeys
    let resolver: any CountryResolving
    let output: RecordFormat
    let followsTraces: Bool
    let columns: ResolvedColumns

    static let csvNames = ["lat", "lon", "time", "trace_id", "record"]

    func header() -> String {
        output == .csv ? FlatRecordWriter(format: .csv, names: Self.csvNames, columns: columns).csvHeader() : ""
    }

    func process(_ chunk: DelimitedChunk) -> ProcessedChunk {
        let out = OutputChunk(capacity: chunk.bytes.count + chunk.bytes.count / 2 + 1024)
        var tally = ChunkTally(followsTraces: followsTraces)
        chunk.bytes.withUnsafeBufferPointer { b in
            if let reason = chunk.unreadableReason {
                tally.countError()
                write(line: b, members: nil, outcome: .failure(RecordFailure(line: chunk.firstLine, reason)), out)
                return
            }
            var line = chunk.firstLine
            var start = 0
            while start < b.count {
                var end = start
                while end < b.count && b[end] != 0x0A { end += 1 }
                let next = end + 1
                if end > start, b[end - 1] == 0x0D { end -= 1 }
                let text = UnsafeBufferPointer(rebasing: b[start..<end])
                defer { line += 1; start = next }
                let scanner = JSONScanner(text)
                if scanner.skipSpace(0) == text.count { continue }
                var members = JSONRecordKeys.Found()
                switch keys.read(scanner, into: &members) {
                case .failure(let reason):
                    tally.countError()
                    write(
                        line: text, members: members.isObject ? members : nil,
                        outcome: .failure(RecordFailure(line: line, reason.text)), out)
                case .success(let position):
                    let r = resolver.resolve(position)
                    let time = members.timeBytes(text)
                    tally.countResolved(r, trace: members.traceBytes(text), time: time, inJourney: members.trace != nil || time != nil)
                    write(line: text, members: members, outcome: .success(r), out)
                }
            }
        }
        tally.finish()
        return ProcessedChunk(output: out, tally: tally, inputBytes: chunk.bytes.count)
    }

    /// One output row. `members` is nil when the line is not a JSON object at all.
    private func write(
        line: UnsafeBufferPointer<UInt8>, members: JSONRecordKeys.Found?, outcome: Result<Resolution, RecordFailure>, _ out: OutputChunk
    ) {
        switch output {
        case .ndjson:
            if let members {
                // Everything up to the closing brace, verbatim.
                out.append(line.baseAddress!, count: members.closingBrace)
                if !members.isEmptyObject { out.append(UInt8(ascii: ",")) }
            } else {
                out.append("{\"record\":")
                // As a String, so that bytes that are not UTF-8 come out as U+FFFD: the row stays JSON.
                JSONText.appendQuoted(String(decoding: line, as: UTF8.self), to: out)
                out.append(UInt8(ascii: ","))
            }
            switch outcome {
            case .success(let r): columns.appendJSON(r, to: out)
            case .failure(let f): columns.appendJSONError(f.message, to: out)
            }
            out.append("}\n")
        case .csv, .gpx:
            let scanner = JSONScanner(line)
            let text: (Range<Int>?) -> FieldValue = { $0.map { .text(scanner.text($0)) } ?? .absent }
            let values: [FieldValue] = [
                text(members?.latitude), text(members?.longitude), text(members?.time), text(members?.trace),
                .text(String(decoding: line, as: UTF8.self)),
            ]
            FlatRecordWriter(format: .csv, names: Self.csvNames, columns: columns).write(values, outcome: outcome, to: out)
        case .geojson:
            let scanner = JSONScanner(line)
            var names: [String] = []
            var values: [FieldValue] = []
            for (key, value) in members?.all ?? [] {
                names.append(scanner.text(key))
                values.append(.json(String(decoding: UnsafeBufferPointer(rebasing: line[value]), as: UTF8.self)))
            }
            if members == nil {
                names.append("record")
                values.append(.text(String(decoding: line, as: UTF8.self)))
            }
            FlatRecordWriter(format: .geojson, names: names, columns: columns).write(values, outcome: outcome, to: out)
        }
    }
}

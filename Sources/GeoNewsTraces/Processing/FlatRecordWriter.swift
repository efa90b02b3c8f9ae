import GeoNewsBoundaries
import GeoNewsGeodesy

/// One original field of a record, for output in a format other than the input's.
enum FieldValue {
    /// Text: a CSV field, a GPX element.
    case text(String)
    /// A JSON value exactly as it appeared (number, object, …).
    case json(String)
    /// Not present: empty in CSV, `null` in JSON.
    case absent
}

/// Writes a record given as named fields, plus the resolved columns, as a CSV row, an NDJSON
/// object or a GeoJSON Point feature. Used whenever the output format is not the input's own,
/// where copying the record verbatim is impossible.
struct FlatRecordWriter: Sendable {
    let format: RecordFormat
    let names: [String]
    let columns: ResolvedColumns

    /// The CSV header line for these names and the resolved columns.
    func csvHeader() -> String {
        (names + columns.names).joined(separator: ",") + "\n"
    }

    /// Writes one row. `outcome` is the resolution or the error message.
    func write(_ values: [FieldValue], outcome: Result<Resolution, RecordFailure>, to out: OutputChunk) {
        switch format {
        case .csv, .gpx:
            for (i, value) in values.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                switch value {
                case .text(let t), .json(let t): CSVText.appendField(t, to: out)
                case .absent: break
                }
            }
            switch outcome {
            case .success(let r): columns.appendCSV(r, to: out)
            case .failure(let f): columns.appendCSVError(f.message, to: out)
            }
            out.append(UInt8(ascii: "\n"))
        case .ndjson:
            out.append(UInt8(ascii: "{"))
            appendMembers(values, outcome: outcome, to: out)
            out.append("}\n")
        case .geojson:
            out.append(",\n{\"type\":\"Feature\",\"geometry\":")
            if case .success(let r) = outcome {
                Self.appendPoint(r.position, to: out)
            } else {
                out.append("null")
            }
            out.append(",\"properties\":{")
            appendMembers(values, outcome: outcome, to: out)
            out.append("}}")
        }
    }

    private func appendMembers(_ values: [FieldValue], outcome: Result<Resolution, RecordFailure>, to out: OutputChunk) {
        for (name, value) in zip(names, values) {
            JSONText.appendQuoted(name, to: out)
            out.append(UInt8(ascii: ":"))
            switch value {
            case .text(let t): JSONText.appendQuoted(t, to: out)
            case .json(let raw):
                // A line break in copied JSON can only be white space between its tokens, and
                // would split an NDJSON row in two: it goes out as a space.
                if raw.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                    out.append(String(decoding: raw.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self))
                } else {
                    out.append(raw)
                }
            case .absent: out.append("null")
            }
            out.append(UInt8(ascii: ","))
        }
        switch outcome {
        case .success(let r): columns.appendJSON(r, to: out)
        case .failure(let f): columns.appendJSONError(f.message, to: out)
        }
    }

    static func appendPoint(_ p: Coordinate, to out: OutputChunk) {
        out.append("{\"type\":\"Point\",\"coordinates\":[")
        out.append(String(p.longitude))
        out.append(UInt8(ascii: ","))
        out.append(String(p.latitude))
        out.append("]}")
    }
}

/// Why one record has no resolution: the message names the line and the reason.
struct RecordFailure: Error {
    let message: String

    init(line: Int, _ reason: String) { message = "line \(line): \(reason)" }
}

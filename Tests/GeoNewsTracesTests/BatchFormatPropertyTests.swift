import PropertyBased
import Testing

@testable import GeoNewsTraces

/// Random valid and spoilt records in every input format, through `BatchResolver`: one row per
/// record in input order, the record's own text kept byte for byte, and every error row
/// naming the record's line or feature.
@Suite struct BatchFormatPropertyTests {
    @Test func csvRowsKeepEveryRecordInOrderWithItsOwnText() async throws {
        await propertyCheck(input: GeneratedRecord.records, Gen.bool, Gen.bool) { records, crlf, bom in
            let end = crlf ? "\r\n" : "\n"
            let texts = records.map { r in
                let name =
                    r.name.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) })
                    ? "\"" + r.name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : r.name
                return r.damage == .notARecord ? "\(name),\(r.latitudeText)" : "\(name),\(r.latitudeText),\(r.longitude)"
            }
            let input = (bom ? "\u{FEFF}" : "") + "name,lat,lon" + end + texts.map { $0 + end }.joined()
            guard let (text, summary) = try? resolveBatch(input) else { Issue.record("the batch failed"); return }
            #expect(summary.recordsRead == records.count)
            var rest = Substring(text)
            guard let header = rest.firstIndex(of: "\n") else { Issue.record("no header in \(text.debugDescription)"); return }
            rest = rest[rest.index(after: header)...]
            var line = 2
            for (record, original) in zip(records, texts) {
                guard rest.hasPrefix(original + ",") else {
                    Issue.record("\(record): row \(rest.prefix(80).debugDescription) does not start with \(original.debugDescription)")
                    return
                }
                let added = rest.dropFirst(original.count + 1).prefix(while: { $0 != "\n" })
                let error = errorField(ofCSVRow: added)
                #expect(error.isEmpty == (record.damage == .none), "\(record): \(error)")
                if record.damage != .none { #expect(error.hasPrefix("line \(line):"), "\(record): \(error)") }
                rest = rest.dropFirst(original.count + 1 + added.count + 1)
                line += 1 + lineBreaks(original)
            }
            #expect(rest.isEmpty, "rows beyond the records: \(rest.prefix(80).debugDescription)")
        }
    }

    @Test func ndjsonRowsKeepEveryObjectInOrderWithItsOwnText() async throws {
        await propertyCheck(input: GeneratedRecord.records) { records in
            let texts = records.map { r in
                r.damage == .notARecord
                    ? "[\(r.longitude),\(r.latitudeText)]"
                    : #"{"name":\#(jsonString(r.name)),"lat":\#(jsonLatitude(r)),"lon":\#(r.longitude)}"#
            }
            guard let (text, summary) = try? resolveBatch(texts.map { $0 + "\n" }.joined(), name: "p.ndjson") else {
                Issue.record("the batch failed"); return
            }
            #expect(summary.recordsRead == records.count)
            let rows = lines(text)
            #expect(rows.count == records.count)
            for (index, ((r, original), row)) in zip(zip(records, texts), rows).enumerated() {
                if r.damage != .notARecord { #expect(row.hasPrefix(original.dropLast() + ","), "\(r): \(row)") }
                if r.damage == .none {
                    #expect(row.hasSuffix(#""error":null}"#), "\(r): \(row)")
                } else {
                    #expect(row.contains(#""error":"line \#(index + 1):"#), "\(r): \(row)")
                }
            }
        }
    }

    @Test func geojsonFeaturesKeepEveryFeatureInOrderWithItsProperties() async throws {
        await propertyCheck(input: GeneratedRecord.records) { records in
            let features = records.map { r in
                r.damage == .notARecord
                    ? String(r.longitude)
                    : #"{"type":"Feature","properties":{"name":\#(jsonString(r.name))},"geometry":{"type":"Point","coordinates":[\#(r.longitude),\#(jsonLatitude(r))]}}"#
            }
            let input = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
            guard let (text, summary) = try? resolveBatch(input, name: "p.geojson") else { Issue.record("the batch failed"); return }
            #expect(summary.recordsRead == records.count)
            let rows = lines(text).dropFirst().dropLast()
            #expect(rows.count == records.count)
            for (index, (r, row)) in zip(records, rows).enumerated() {
                if r.damage != .notARecord { #expect(row.contains(#""properties":{"name":\#(jsonString(r.name)),"#), "\(r): \(row)") }
                if r.damage == .none {
                    #expect(row.contains(#""error":null"#), "\(r): \(row)")
                } else {
                    #expect(row.contains(#""error":"line \#(index + 1): feature \#(index + 1):"#), "\(r): \(row)")
                }
            }
        }
    }

    @Test func gpxRowsKeepEveryPointInOrderWithItsOwnText() async throws {
        await propertyCheck(input: GeneratedRecord.records) { records in
            // XML folds CR LF into LF, and CSV output would quote: names from the letters that need neither.
            let names = records.map { String($0.name.filter { "aZ7é北&<".contains($0) }) }
            let points = zip(records, names).map { r, name in
                let escaped = name.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                let latitude = r.damage == .notARecord ? "" : #" lat="\#(r.latitudeText)""#
                return #"<trkpt\#(latitude) lon="\#(r.longitude)"><name>\#(escaped)</name></trkpt>"#
            }
            let input = "<gpx><trk><trkseg>\n" + points.map { $0 + "\n" }.joined() + "</trkseg></trk></gpx>\n"
            guard let (text, summary) = try? resolveBatch(input, name: "p.gpx") else { Issue.record("the batch failed"); return }
            #expect(summary.recordsRead == records.count)
            let rows = lines(text).dropFirst()
            #expect(rows.count == records.count)
            for (index, ((r, name), row)) in zip(zip(records, names), rows).enumerated() {
                let fields = row.split(separator: ",", omittingEmptySubsequences: false)
                #expect(fields.count >= 13, "\(r): \(row)")
                guard fields.count >= 13 else { continue }
                #expect(fields[3] == (r.damage == .notARecord ? "" : r.latitudeText), "\(r): \(row)")
                #expect(fields[4] == String(r.longitude), "\(r): \(row)")
                #expect(fields[7] == name, "\(r): \(row)")
                let error = errorField(ofCSVRow: row[...])
                if r.damage == .none {
                    #expect(error.isEmpty, "\(r): \(row)")
                } else {
                    #expect(error.hasPrefix("line \(index + 2):"), "\(r): \(row)")
                }
            }
        }
    }
}

/// `text` as a JSON string literal.
private func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// The latitude as a JSON value: a number, or a string when it is spoilt to not be one.
private func jsonLatitude(_ record: GeneratedRecord) -> String {
    record.damage == .latitudeNotANumber ? jsonString(record.latitudeText) : record.latitudeText
}

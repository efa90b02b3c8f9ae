import PropertyBased
import Testing

@testable import GeoNewsTraces

/// One generated input record: a position, a name with the characters formats must quote or
/// escape, and a way to spoil it (or none).
struct GeneratedRecord: Sendable, CustomStringConvertible {
    enum Damage: Int, CaseIterable, Sendable {
        case none, latitudeNotANumber, latitudeOutOfRange, notARecord
    }

    var damage: Damage
    var name: String
    var latitude: Int
    var longitude: Int

    var description: String { "\(damage) \(name.debugDescription) \(latitude),\(longitude)" }

    /// The latitude as the input writes it.
    var latitudeText: String {
        switch damage {
        case .latitudeNotANumber: return "abc"
        case .latitudeOutOfRange: return "95"
        case .none, .notARecord: return String(latitude)
        }
    }

    /// Characters that need quoting in CSV, escaping in JSON and XML, or more than one byte.
    private static let palette = ["a", "Z", "7", " ", ",", "\"", "\n", "\r\n", "'", "é", "北", "&", "<", "\\", "{"]

    static let generator = zip(
        Gen.int(in: 0...(Damage.allCases.count - 1)), Gen.int(in: 0...(palette.count - 1)).array(of: 0...6),
        Gen.int(in: -12...22), Gen.int(in: -12...22)
    ).map { damage, letters, latitude, longitude in
        GeneratedRecord(
            damage: Damage(rawValue: damage)!, name: letters.map { palette[$0] }.joined(),
            latitude: latitude, longitude: longitude)
    }

    static let records = generator.array(of: 0...12)
}

/// The error column of a CSV output row (the last field), unquoted.
func errorField(ofCSVRow row: Substring) -> String {
    guard row.hasSuffix("\"") else { return String(row[row.index(after: row.lastIndex(of: ",") ?? row.startIndex)...]) }
    let body = row.dropLast()
    guard let open = body.range(of: ",\"", options: .backwards) else { return String(body) }
    return body[open.upperBound...].replacingOccurrences(of: "\"\"", with: "\"")
}

/// The number of line breaks (LF, or CR LF counted once) in `text`.
func lineBreaks(_ text: String) -> Int {
    text.unicodeScalars.filter { $0 == "\n" }.count
}

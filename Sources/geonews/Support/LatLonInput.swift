import Foundation
import GeoNewsGeodesy

/// A position typed as one `LAT,LON` value (degrees), validated. `role` names it in messages
/// ("start", "end"), which quote the value as typed:
/// `start '91,0': latitude 91 is outside -90…90`, `end 'abc' is not LAT,LON`.
func parseLatLon(_ text: String, role: String) throws(PositionInputError) -> Coordinate {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2 else { throw PositionInputError(message: "\(role) '\(text)' is not LAT,LON") }
    do {
        return try parsePosition(lat: parts[0].trimmingCharacters(in: .whitespaces),
                                 lon: parts[1].trimmingCharacters(in: .whitespaces))
    } catch {
        throw PositionInputError(message: "\(role) '\(text)': \(error)")
    }
}

/// Whether a command-line word is a value that starts with a minus sign (`-33.9,18.4`,
/// `-.5`) rather than an option (`--json`, `-h`): ArgumentParser reads both as options.
func isNegativeNumberWord(_ word: String) -> Bool {
    guard word.hasPrefix("-"), let next = word.dropFirst().first else { return false }
    return next.isASCII && (next.isNumber || next == ".")
}

import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsGeodesy

/// Reads a degree value from the command line. Only plain decimal numbers are taken: "nan",
/// "inf" and hexadecimal floats are refused with a message that names the value.
func parseDegrees(_ text: String, field: String) throws(CoordinateError) -> Double {
    let t = text.trimmingPrefix(" ")
    let allowed = t.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E") }
    guard allowed, let v = Double(String(t)) else {
        if let v = Double(String(t)), !v.isFinite { throw .notFinite(field: field, value: v) }
        throw .notANumber(field: field, text: text)
    }
    return v
}

/// A validated position from `--lat` and `--lon` strings. Messages quote the value as typed.
func parsePosition(lat: String, lon: String) throws(PositionInputError) -> Coordinate {
    do {
        return try Coordinate.validated(latitude: parseDegrees(lat, field: "latitude"), longitude: parseDegrees(lon, field: "longitude"))
    } catch .latitudeOutOfRange {
        throw PositionInputError(message: "latitude \(lat) is outside -90…90")
    } catch .longitudeOutOfRange {
        throw PositionInputError(message: "longitude \(lon) is outside -180…180")
    } catch {
        throw PositionInputError(message: error.description)
    }
}

struct PositionInputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

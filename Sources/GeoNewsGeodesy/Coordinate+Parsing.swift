extension Coordinate {
    /// A checked position from the text of a latitude and a longitude, as a user typed them
    /// (a command-line option, a query parameter, a `LAT,LON` pair).
    ///
    /// Only plain decimal numbers are taken, with an optional sign and exponent: `nan`, `inf`
    /// and hexadecimal floats are refused. Latitude must be within -90…90 and longitude within
    /// -180…180 degrees, both ends included. Leading spaces are ignored.
    ///
    /// - Throws: ``CoordinateInputError`` quoting the text exactly as given, so that
    ///   `1e400` is echoed as `1e400`, not as the infinity it would parse to.
    public init(parsingLatitude latitude: String, longitude: String) throws(CoordinateInputError) {
        let lat = try Self.parseDegrees(latitude, field: "latitude")
        let lon = try Self.parseDegrees(longitude, field: "longitude")
        guard (-90.0...90.0).contains(lat) else { throw .outOfRange(field: "latitude", text: latitude, range: "-90…90") }
        guard (-180.0...180.0).contains(lon) else { throw .outOfRange(field: "longitude", text: longitude, range: "-180…180") }
        self.init(latitude: lat, longitude: lon)
    }

    /// A finite number of degrees from `text`; `field` names it in the error.
    ///
    /// - Throws: ``CoordinateInputError/notANumber(field:text:)`` or
    ///   ``CoordinateInputError/notFinite(field:text:)``; no range check.
    public static func parseDegrees(_ text: String, field: String) throws(CoordinateInputError) -> Double {
        // Bytes rather than Characters, and no String copy: breaking the text into grapheme
        // clusters was most of the cost of an HTTP resolve request. Any non-ASCII byte makes the
        // text not plain, as a non-ASCII Character did.
        var t = Substring(text)
        if t.first == " " { t = t.dropFirst() }
        let plain = t.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
                || b == UInt8(ascii: "+") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
        }
        guard let value = Double(t) else { throw .notANumber(field: field, text: text) }
        guard value.isFinite else { throw .notFinite(field: field, text: text) }
        guard plain else { throw .notANumber(field: field, text: text) }
        return value
    }
}

/// Why the text of a position typed by a user is not a position. Every message quotes the
/// text as it was given.
public enum CoordinateInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a decimal number: `latitude 'abc' is not a number`.
    case notANumber(field: String, text: String)
    /// NaN or infinite, or too large for a `Double`: `latitude 1e400 is not a finite number`.
    case notFinite(field: String, text: String)
    /// A number outside the field's range: `latitude 91.2 is outside -90…90`.
    case outOfRange(field: String, text: String, range: String)

    public var description: String {
        switch self {
        case .notANumber(let field, let text): return "\(field) '\(text)' is not a number"
        case .notFinite(let field, let text): return "\(field) \(text) is not a finite number"
        case .outOfRange(let field, let text, let range): return "\(field) \(text) is outside \(range)"
        }
    }
}

extension Coordinate {
    /// A checked position from one `LAT,LON` text in degrees, as a user types it
    /// (`-33.9,18.4`; spaces around either number are ignored). Each number is read and
    /// range-checked as ``init(parsingLatitude:longitude:)`` does.
    ///
    /// - Throws: ``CoordinatePairError`` quoting the text as given.
    public init(parsingPair text: String) throws(CoordinatePairError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .notAPair(text: text) }
        func trimmed(_ part: Substring) -> String {
            var t = part
            while t.first == " " { t.removeFirst() }
            while t.last == " " { t.removeLast() }
            return String(t)
        }
        do {
            try self.init(parsingLatitude: trimmed(parts[0]), longitude: trimmed(parts[1]))
        } catch {
            throw .badCoordinate(text: text, reason: error)
        }
    }

    /// Whether a command-line word is a value that starts with a minus sign (`-33.9,18.4`,
    /// `-.5`) rather than an option (`--json`, `-h`). Argument parsers read both as options;
    /// a command that takes positions uses this to tell them apart.
    public static func looksLikeNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-"), let next = word.dropFirst().first else { return false }
        return next.isASCII && (next.isNumber || next == ".")
    }
}

/// Why a `LAT,LON` text is not a position; the message quotes the text as given.
public enum CoordinatePairError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not two comma-separated parts: `'abc' is not LAT,LON`.
    case notAPair(text: String)
    /// Two parts, one of them not a valid latitude or longitude:
    /// `'91,0': latitude 91 is outside -90…90`.
    case badCoordinate(text: String, reason: CoordinateInputError)

    public var description: String {
        switch self {
        case .notAPair(let text): return "'\(text)' is not LAT,LON"
        case .badCoordinate(let text, let reason): return "'\(text)': \(reason)"
        }
    }
}

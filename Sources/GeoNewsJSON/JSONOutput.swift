/// A JSON document written byte by byte, in the layout Foundation's `JSONEncoder` gives with
/// `.sortedKeys` and `.withoutEscapingSlashes`: no white space, numbers as Swift prints them
/// without a trailing `.0` (`0`, `48.8566`, `1e-05`, `1e+16`), strings through ``JSONString``.
/// The one difference: U+0008 and U+000C are written `\u0008` and `\u000c` where the encoder
/// writes `\b` and `\f` (the same string to any JSON reader).
///
/// The caller writes the members of an object in sorted order itself (a fixed report knows
/// its keys); ``value(_:)`` sorts the members of a ``JSONValue`` object by their UTF-8 bytes,
/// as `JSONEncoder` does.
public struct JSONOutput {
    /// The document so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty document with room for `capacity` bytes.
    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    /// Punctuation and keys the caller knows to need no escaping: `{"name":`, `,`, `}`.
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `text` as a quoted, escaped string.
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in JSONString.appendQuoted(utf8) { bytes.append($0) } }
    }

    /// `text` quoted, or `null`.
    public mutating func string(orNull text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// An integer in decimal.
    public mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// `value` in Swift's shortest round-trip form, without a trailing `.0`.
    ///
    /// - Throws: `EncodingError.invalidValue` for infinities and NaN, which JSON cannot
    ///   write (as `JSONEncoder` does).
    public mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    /// `value` as its JSON text, object members sorted by the UTF-8 bytes of their keys.
    public mutating func value(_ value: JSONValue) throws {
        switch value {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .number(let d): try number(d)
        case .string(let s): string(s)
        case .array(let elements):
            raw("[")
            for (i, element) in elements.enumerated() {
                if i > 0 { raw(",") }
                try self.value(element)
            }
            raw("]")
        case .object(let members):
            raw("{")
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (i, member) in sorted.enumerated() {
                if i > 0 { raw(",") }
                string(member.key)
                raw(":")
                try self.value(member.value)
            }
            raw("}")
        }
    }
}

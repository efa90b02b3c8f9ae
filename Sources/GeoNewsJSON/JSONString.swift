/// JSON string literals (RFC 8259 §7): the one escaper every GeoNews writer of JSON uses.
///
/// `"` and `\` are escaped, as are the control characters U+0000…U+001F (`\n`, `\r`, `\t`
/// by name, the others as `\u00XX`). Everything else, including `/` and non-ASCII text, is
/// copied as UTF-8 unchanged.
public enum JSONString {
    /// Calls `append` with the bytes of `text` as a quoted JSON string, quotes included.
    ///
    /// Works on bytes so that the batch writers can escape fields without making `String`s;
    /// invalid UTF-8 is copied as it is.
    @inlinable
    public static func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, _ append: (UInt8) -> Void) {
        append(UInt8(ascii: "\""))
        for c in text {
            switch c {
            case UInt8(ascii: "\""): append(UInt8(ascii: "\\")); append(c)
            case UInt8(ascii: "\\"): append(c); append(c)
            case 0x0A: append(UInt8(ascii: "\\")); append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "\\")); append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "\\")); append(UInt8(ascii: "t"))
            case 0..<0x20:
                for e in [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")] { append(e) }
                append(hexDigit(c >> 4))
                append(hexDigit(c & 15))
            default: append(c)
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// `text` as a quoted JSON string literal, e.g. `"a\"b"` for `a"b`.
    public static func quoted(_ text: String) -> String {
        var text = text
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        text.withUTF8 { appendQuoted($0) { out.append($0) } }
        return String(decoding: out, as: UTF8.self)
    }

    @inlinable
    static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? v + 48 : v + 87 }
}

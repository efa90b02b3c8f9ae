import GeoNewsJSON

/// Byte-level text comparisons for header names and JSON keys.
enum ASCIIText {
    /// True when `bytes` spell `name` ignoring ASCII case.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
        var name = name
        return name.withUTF8 { n in
            guard n.count == bytes.count else { return false }
            for i in 0..<n.count where lower(n[i]) != lower(bytes[i]) { return false }
            return true
        }
    }

    @inline(__always)
    static func lower(_ c: UInt8) -> UInt8 { c &- 65 < 26 ? c | 0x20 : c }

    /// The value of the four hexadecimal digits at `at` (a `\u` escape's), `nil` when fewer
    /// than four bytes are left or one is not a hexadecimal digit.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for k in at..<(at + 4) {
            let c = bytes[k]
            let digit: UInt8
            switch c {
            case 48...57: digit = c - 48
            case 65...70: digit = c - 55
            case 97...102: digit = c - 87
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var s = 0, e = bytes.count
        while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
        while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[s..<e])
    }
}

/// JSON string unescaping, and escaping into a ``OutputChunk``.
enum JSONText {
    /// Decodes the contents of a JSON string (without its quotes).
    static func decodeString(_ b: UnsafeBufferPointer<UInt8>) -> String {
        guard b.contains(UInt8(ascii: "\\")) else { return String(decoding: b, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        func hex4(_ at: Int) -> UInt32? { ASCIIText.hex4(b, at: at) }
        while i < b.count {
            let c = b[i]
            guard c == UInt8(ascii: "\\"), i + 1 < b.count else { out.append(c); i += 1; continue }
            let e = b[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(i) else { out.append(e); continue }
                i += 4
                if scalar >= 0xD800, scalar < 0xDC00, i + 6 <= b.count, b[i] == UInt8(ascii: "\\"),
                    b[i + 1] == UInt8(ascii: "u"), let low = hex4(i + 2), low >= 0xDC00, low < 0xE000
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a quoted JSON string (GeoNewsJSON's escaper).
    @inline(__always)
    static func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, to out: OutputChunk) {
        JSONString.appendQuoted(text) { out.append($0) }
    }

    static func appendQuoted(_ text: String, to out: OutputChunk) {
        var text = text
        text.withUTF8 { appendQuoted($0, to: out) }
    }
}

/// The scalar tokens of RFC 8259, checked byte by byte: records are copied into output rows
/// verbatim, so a token the grammar refuses (`1-2-3`, `01`, `1.`, `"\x"`, a lone `\uD800`, a
/// byte that is not UTF-8) must make the record an error row rather than reach the output.
extension JSONScanner {
    /// The index after the closing quote of the string opening at `i`, and whether it has
    /// escapes. Escapes must be JSON's own, a UTF-16 surrogate must come in a pair, control
    /// characters must be escaped, and other bytes must be well-formed UTF-8.
    func stringEnd(_ i: Int) throws(JSONScanError) -> (end: Int, escaped: Bool) {
        var j = i + 1
        var escaped = false
        while j < bytes.count {
            let c = bytes[j]
            if c == UInt8(ascii: "\"") { return (j + 1, escaped) }
            if c == UInt8(ascii: "\\") {
                escaped = true
                j = try escapeEnd(j)
            } else if c < 0x20 {
                throw .unexpected(byte: c, offset: j)
            } else if c < 0x80 {
                j += 1
            } else {
                j = try utf8End(j)
            }
        }
        throw .truncated
    }

    /// The index after the escape whose backslash is at `i`.
    private func escapeEnd(_ i: Int) throws(JSONScanError) -> Int {
        guard i + 1 < bytes.count else { throw .truncated }
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            let unit = try hex4(i + 2, escapeAt: i)
            switch unit {
            case 0xDC00..<0xE000:
                throw .loneSurrogate(offset: i)
            case 0xD800..<0xDC00:
                guard i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
                    (0xDC00..<0xE000).contains(try hex4(i + 8, escapeAt: i + 6))
                else {
                    if i + 8 > bytes.count { throw .truncated }
                    throw .loneSurrogate(offset: i)
                }
                return i + 12
            default:
                return i + 6
            }
        default:
            throw .invalidEscape(offset: i)
        }
    }

    /// The four hex digits at `at`, of the `\u` escape at `escapeAt`.
    private func hex4(_ at: Int, escapeAt: Int) throws(JSONScanError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw .truncated }
        guard let value = ASCIIText.hex4(bytes, at: at) else { throw .invalidEscape(offset: escapeAt) }
        return value
    }

    /// The index after the UTF-8 sequence whose lead byte (0x80 or above) is at `i`, after
    /// the Unicode Standard's table 3-7 of well-formed sequences: no overlong forms, no
    /// surrogates, nothing above U+10FFFF.
    private func utf8End(_ i: Int) throws(JSONScanError) -> Int {
        let lead = bytes[i]
        let count: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: count = 2; second = 0x80...0xBF
        case 0xE0: count = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3; second = 0x80...0xBF
        case 0xED: count = 3; second = 0x80...0x9F
        case 0xF0: count = 4; second = 0x90...0xBF
        case 0xF1...0xF3: count = 4; second = 0x80...0xBF
        case 0xF4: count = 4; second = 0x80...0x8F
        default: throw .invalidUTF8(offset: i)
        }
        guard i + count <= bytes.count else { throw .invalidUTF8(offset: i) }
        guard second.contains(bytes[i + 1]) else { throw .invalidUTF8(offset: i) }
        for k in (i + 2)..<(i + count) where !(0x80...0xBF).contains(bytes[k]) { throw .invalidUTF8(offset: i) }
        return i + count
    }

    /// The index after the number starting at `i` (a `-` or a digit):
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. What follows is the caller's
    /// to check, so `01` ends after the `0` and the `1` is then refused as out of place.
    func numberEnd(_ i: Int) throws(JSONScanError) -> Int {
        var j = i
        if bytes[j] == UInt8(ascii: "-") { j += 1 }
        func digits(from start: Int) throws(JSONScanError) -> Int {
            var k = start
            while k < bytes.count, (48...57).contains(bytes[k]) { k += 1 }
            guard k > start else {
                if start >= bytes.count { throw .truncated }
                throw .invalidNumber(offset: i)
            }
            return k
        }
        guard j < bytes.count else { throw .truncated }
        j = bytes[j] == UInt8(ascii: "0") ? j + 1 : try digits(from: j)
        if j < bytes.count, bytes[j] == UInt8(ascii: ".") { j = try digits(from: j + 1) }
        if j < bytes.count, bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") {
            j += 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            j = try digits(from: j)
        }
        return j
    }
}

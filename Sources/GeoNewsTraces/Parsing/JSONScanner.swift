/// Why a JSON record could not be read, with the byte offset within the record.
package enum JSONScanError: Error, Equatable, CustomStringConvertible {
    case unexpected(byte: UInt8, offset: Int)
    case truncated
    /// A number outside JSON's grammar (`-`, `1.`, `1e`, `1-2`), starting at `offset`.
    case invalidNumber(offset: Int)
    /// A backslash that starts no JSON escape (`\x`, `\u12`).
    case invalidEscape(offset: Int)
    /// A `\uD800`…`\uDFFF` escape without its other half.
    case loneSurrogate(offset: Int)
    /// Bytes in a string that are not UTF-8.
    case invalidUTF8(offset: Int)

    package var description: String {
        switch self {
        case .unexpected(let byte, let offset):
            let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
            return "invalid JSON: unexpected \(shown) at byte \(offset + 1)"
        case .truncated:
            return "truncated JSON: the record ends inside a value"
        case .invalidNumber(let offset):
            return "invalid JSON: the number at byte \(offset + 1) is not of the form -12.5e3"
        case .invalidEscape(let offset):
            return "invalid JSON: the escape at byte \(offset + 1) is not one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        case .loneSurrogate(let offset):
            return "invalid JSON: the \\u escape at byte \(offset + 1) is half of a UTF-16 surrogate pair"
        case .invalidUTF8(let offset):
            return "invalid JSON: the string has bytes that are not UTF-8 at byte \(offset + 1)"
        }
    }
}

/// Finds the structure of one JSON text in place, as byte ranges, without building values.
///
/// Records only need a handful of top-level members (coordinates, time, trace id); everything
/// else is copied to the output verbatim, so nested values are checked against the grammar
/// (see `JSONScanner+Tokens.swift`) but not built.
package struct JSONScanner {
    package let bytes: UnsafeBufferPointer<UInt8>

    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    @inline(__always)
    package func skipSpace(_ i: Int) -> Int {
        var i = i
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return i
            }
        }
        return i
    }

    private func expectByte(_ i: Int) throws(JSONScanError) -> UInt8 {
        guard i < bytes.count else { throw .truncated }
        return bytes[i]
    }

    /// The index just past the value starting at `i` (no leading space).
    package func valueEnd(_ i: Int) throws(JSONScanError) -> Int {
        let c = try expectByte(i)
        switch c {
        case UInt8(ascii: "\""):
            return try stringEnd(i).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try containerEnd(i)
        case UInt8(ascii: "-"), 48...57:
            return try numberEnd(i)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word: StaticString = c == UInt8(ascii: "t") ? "true" : c == UInt8(ascii: "f") ? "false" : "null"
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count else { throw .truncated }
            for k in 0..<n where bytes[i + k] != word.utf8Start[k] {
                throw .unexpected(byte: bytes[i + k], offset: i + k)
            }
            return i + n
        default:
            throw .unexpected(byte: c, offset: i)
        }
    }

    /// What may come next inside a container being checked by ``containerEnd(_:)``.
    private enum Expected { case value, valueOrClose, key, keyOrClose, colon, commaOrClose }

    /// The index just past the object or array opening at `i`, checking its grammar on the
    /// way (keys are strings, members and elements are separated by commas, brackets match),
    /// without recursion, so that any depth of nesting is safe. A value whose brackets merely
    /// balance is not enough: its text is copied into output rows, which must stay JSON.
    private func containerEnd(_ i: Int) throws(JSONScanError) -> Int {
        var open: [UInt8] = []
        var expected = Expected.value
        var j = i
        while true {
            j = skipSpace(j)
            let c = try expectByte(j)
            switch expected {
            case .value, .valueOrClose:
                if expected == .valueOrClose, c == UInt8(ascii: "]") {
                    open.removeLast()
                    j += 1
                    if open.isEmpty { return j }
                    expected = .commaOrClose
                } else if c == UInt8(ascii: "{") {
                    open.append(c)
                    j += 1
                    expected = .keyOrClose
                } else if c == UInt8(ascii: "[") {
                    open.append(c)
                    j += 1
                    expected = .valueOrClose
                } else {
                    j = try valueEnd(j)
                    expected = .commaOrClose
                }
            case .key, .keyOrClose:
                if expected == .keyOrClose, c == UInt8(ascii: "}") {
                    open.removeLast()
                    j += 1
                    if open.isEmpty { return j }
                    expected = .commaOrClose
                } else {
                    guard c == UInt8(ascii: "\"") else { throw .unexpected(byte: c, offset: j) }
                    j = try stringEnd(j).end
                    expected = .colon
                }
            case .colon:
                guard c == UInt8(ascii: ":") else { throw .unexpected(byte: c, offset: j) }
                j += 1
                expected = .value
            case .commaOrClose:
                let top = open[open.count - 1]
                if c == UInt8(ascii: ",") {
                    j += 1
                    expected = top == UInt8(ascii: "{") ? .key : .value
                } else if (c == UInt8(ascii: "}") && top == UInt8(ascii: "{")) || (c == UInt8(ascii: "]") && top == UInt8(ascii: "[")) {
                    open.removeLast()
                    j += 1
                    if open.isEmpty { return j }
                } else {
                    throw .unexpected(byte: c, offset: j)
                }
            }
        }
    }

    /// Calls `body` with each member of the object opening at `i` (key range includes its
    /// quotes; value range is exact) and returns the index after the closing brace.
    @discardableResult
    package func members(
        of i: Int, _ body: (_ key: Range<Int>, _ value: Range<Int>) throws(JSONScanError) -> Void
    ) throws(JSONScanError) -> Int {
        guard try expectByte(i) == UInt8(ascii: "{") else { throw .unexpected(byte: bytes[i], offset: i) }
        var j = skipSpace(i + 1)
        if try expectByte(j) == UInt8(ascii: "}") { return j + 1 }
        while true {
            guard try expectByte(j) == UInt8(ascii: "\"") else { throw .unexpected(byte: bytes[j], offset: j) }
            let keyEnd = try stringEnd(j).end
            let colon = skipSpace(keyEnd)
            guard try expectByte(colon) == UInt8(ascii: ":") else { throw .unexpected(byte: bytes[colon], offset: colon) }
            let valueStart = skipSpace(colon + 1)
            let valueEnd = try valueEnd(valueStart)
            try body(j..<keyEnd, valueStart..<valueEnd)
            j = skipSpace(valueEnd)
            switch try expectByte(j) {
            case UInt8(ascii: ","): j = skipSpace(j + 1)
            case UInt8(ascii: "}"): return j + 1
            default: throw .unexpected(byte: bytes[j], offset: j)
            }
        }
    }

    /// Calls `body` with each element of the array opening at `i`; returns the index after `]`.
    @discardableResult
    package func elements(of i: Int, _ body: (Range<Int>) throws(JSONScanError) -> Void) throws(JSONScanError) -> Int {
        guard try expectByte(i) == UInt8(ascii: "[") else { throw .unexpected(byte: bytes[i], offset: i) }
        var j = skipSpace(i + 1)
        if try expectByte(j) == UInt8(ascii: "]") { return j + 1 }
        while true {
            let end = try valueEnd(j)
            try body(j..<end)
            j = skipSpace(end)
            switch try expectByte(j) {
            case UInt8(ascii: ","): j = skipSpace(j + 1)
            case UInt8(ascii: "]"): return j + 1
            default: throw .unexpected(byte: bytes[j], offset: j)
            }
        }
    }

    /// True when the quoted key at `range` equals one of `names`, ignoring ASCII case.
    package func key(_ range: Range<Int>, isOneOf names: [String]) -> Bool {
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        return names.contains { ASCIIText.equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[inner]), $0) }
    }

    /// The bytes of `range`, without quotes when it is a string.
    package func unquotedBytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        if range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") {
            return UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
        }
        return UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// The text of the value at `range`: a decoded string, or the raw token otherwise.
    package func text(_ range: Range<Int>) -> String {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        return JSONText.decodeString(UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]))
    }

    package func isNull(_ range: Range<Int>) -> Bool {
        range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "n")
    }
}

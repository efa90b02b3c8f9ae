/// One field of a CSV record as a byte range. For a quoted field the range excludes the
/// enclosing quotes and may still hold doubled quotes (`""`).
package struct CSVField {
    package var start: Int
    package var end: Int
    package var quoted: Bool
}

/// What is wrong with a record's quoting (RFC 4180 §2.5–2.7).
package enum CSVQuoteProblem: Equatable {
    /// A quoted field never closes before the end of the input.
    case unterminated(field: Int)
    /// Text follows the closing quote of a field, as in `"abc"d`.
    case textAfterClosingQuote(field: Int)

    package var description: String {
        switch self {
        case .unterminated(let f): return "broken quoting: quoted field \(f) is never closed"
        case .textAfterClosingQuote(let f): return "broken quoting: text after the closing quote of field \(f)"
        }
    }
}

/// Walks the records of a buffer that holds whole CSV records (RFC 4180: quoted fields may hold
/// commas, doubled quotes and line breaks; records end in LF or CRLF; the last may lack one).
///
/// Quotes open a quoted field only at the start of a field; elsewhere they are literal, as
/// Python's `csv` module reads them.
package struct CSVRecordCursor {
    package let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// A cursor whose next record starts at byte `position`, the start of a record.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    package struct Record {
        /// The record's bytes without its line terminator.
        package var start: Int
        package var end: Int
        /// Line breaks consumed, including the terminator: how far the line number advances.
        package var lines: Int
        package var problem: CSVQuoteProblem?
        package var isBlank: Bool { end == start }
    }

    /// The next record, its fields written into `fields`; `nil` at the end of the buffer.
    package mutating func next(fields: inout [CSVField]) -> Record? {
        let b = bytes
        let n = b.count
        var i = position
        guard i < n else { return nil }
        fields.removeAll(keepingCapacity: true)
        let start = i
        var lines = 0
        var problem: CSVQuoteProblem?
        while true {
            if i < n, b[i] == UInt8(ascii: "\"") {
                let contentStart = i + 1
                var j = contentStart
                var closed = false
                while j < n {
                    let c = b[j]
                    if c == UInt8(ascii: "\"") {
                        if j + 1 < n, b[j + 1] == UInt8(ascii: "\"") { j += 2; continue }
                        closed = true
                        break
                    }
                    if c == 0x0A { lines += 1 }
                    j += 1
                }
                fields.append(CSVField(start: contentStart, end: j, quoted: true))
                guard closed else {
                    problem = .unterminated(field: fields.count)
                    position = n
                    return Record(start: start, end: n, lines: lines, problem: problem)
                }
                i = j + 1
                if i < n, b[i] == UInt8(ascii: ",") { i += 1; continue }
                if i < n, b[i] == 0x0D, i + 1 == n || b[i + 1] == 0x0A { i += 1 }
                if i >= n || b[i] == 0x0A { return finish(start, recordEnd: i, lines, problem) }
                // Text after a closing quote: keep reading to the end of the line.
                problem = problem ?? .textAfterClosingQuote(field: fields.count)
                while i < n, b[i] != 0x0A { i += 1 }
                return finish(start, recordEnd: i, lines, problem)
            }
            var j = i
            while j < n {
                let c = b[j]
                if c == UInt8(ascii: ",") || c == 0x0A { break }
                j += 1
            }
            var fieldEnd = j
            if j == n || b[j] == 0x0A, fieldEnd > i, b[fieldEnd - 1] == 0x0D { fieldEnd -= 1 }
            fields.append(CSVField(start: i, end: fieldEnd, quoted: false))
            if j < n, b[j] == UInt8(ascii: ",") { i = j + 1; continue }
            return finish(start, recordEnd: j, lines, problem)
        }
    }

    private mutating func finish(
        _ start: Int, recordEnd: Int, _ lines: Int, _ problem: CSVQuoteProblem?
    ) -> Record {
        var end = recordEnd
        if end > start, end <= bytes.count, bytes[end - 1] == 0x0D { end -= 1 }
        let hasTerminator = recordEnd < bytes.count
        position = hasTerminator ? recordEnd + 1 : recordEnd
        return Record(start: start, end: end, lines: lines + (hasTerminator ? 1 : 0), problem: problem)
    }

    /// The field's text, with doubled quotes undone.
    package func text(_ field: CSVField) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
        guard field.quoted, raw.contains(UInt8(ascii: "\"")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var k = 0
        while k < raw.count {
            out.append(raw[k])
            k += raw[k] == UInt8(ascii: "\"") && k + 1 < raw.count && raw[k + 1] == UInt8(ascii: "\"") ? 2 : 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    package func raw(_ field: CSVField) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
    }
}

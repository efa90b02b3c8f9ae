/// One record of a buffer that holds no `"` at all, where a record is exactly a line: its
/// byte range, its number of fields and the raw text of the two fields a batch reads (the
/// latitude and the longitude), found in one pass without storing every field.
///
/// It draws the lines exactly as ``CSVRecordCursor`` does for quote-free text, so a caller
/// can take the cursor for any record this one does not settle: a carriage return is dropped
/// before a line feed or the end of the buffer, from the record and from its last field.
struct PlainCSVRecord {
    /// The record's bytes without its line terminator.
    var start: Int
    var end: Int
    /// Where the next record starts.
    var next: Int
    /// 1 when a line feed ended the record, 0 at the end of the buffer.
    var lines: Int
    var fieldCount: Int
    /// The two fields asked for, or empty ranges (at `start`) when the record has fewer fields.
    var first: Range<Int>
    var second: Range<Int>

    var isBlank: Bool { end == start }

    /// The record that starts at `start` (which must be below `bytes.count`), with fields
    /// `firstField` and `secondField` (0-based) picked out.
    @inline(__always)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, firstField: Int, secondField: Int) -> PlainCSVRecord {
        let b = bytes.baseAddress!
        let n = bytes.count
        var i = start
        var field = 0
        var fieldStart = start
        var first = start..<start, second = start..<start
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: ",") {
                if field == firstField { first = fieldStart..<i }
                if field == secondField { second = fieldStart..<i }
                field &+= 1
                fieldStart = i &+ 1
            } else if c == 0x0A {
                break
            }
            i &+= 1
        }
        // The last field, without the carriage return of a CRLF (or of the buffer's end).
        var end = i
        if end > start, b[end &- 1] == 0x0D { end &-= 1 }
        let lastEnd = max(fieldStart, end)
        if field == firstField { first = fieldStart..<lastEnd }
        if field == secondField { second = fieldStart..<lastEnd }
        let terminated = i < n
        return PlainCSVRecord(
            start: start, end: end, next: terminated ? i &+ 1 : i, lines: terminated ? 1 : 0, fieldCount: field &+ 1,
            first: first, second: second)
    }
}

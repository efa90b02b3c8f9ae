#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole line-delimited records (CSV or NDJSON) for one worker.
package struct DelimitedChunk: Sendable {
    package var bytes: [UInt8]
    /// Line number of the first byte, 1-based, counted from the start of the input.
    package var firstLine: Int
    /// Whether any `"` occurs; without one, records are exactly lines.
    package var hasQuotes: Bool
    /// Set when the chunk is a single record that cannot be split into fields: the reason.
    package var unreadableReason: String?
}

/// Cuts an input into chunks of whole records, never splitting a record (nor a quoted CSV field
/// that spans lines) across two chunks.
///
/// Memory stays bounded by `chunkBytes + maxRecordBytes`: a quote that never closes turns its
/// first line into an unreadable record once the input ends or the record passes
/// `maxRecordBytes`, and reading resumes on the next line, so no later row is lost.
package final class DelimitedChunkReader {
    private let source: ByteSource
    private let quoteAware: Bool
    private let chunkBytes: Int
    private let maxRecordBytes: Int
    private var carry: [UInt8] = []
    private var block: [UInt8] = []
    private var atStart = true
    private var atEnd = false
    private var skippingLongLine = false
    private(set) var line = 1

    package init(source: ByteSource, quoteAware: Bool, chunkBytes: Int, maxRecordBytes: Int) {
        self.source = source
        self.quoteAware = quoteAware
        self.chunkBytes = max(4096, chunkBytes)
        self.maxRecordBytes = max(1024, maxRecordBytes)
    }

    /// The next chunk, or `nil` when the input is exhausted.
    package func next() throws(BatchResolveError) -> DelimitedChunk? {
        while true {
            var buffer = carry
            carry = []
            try fill(&buffer)
            if buffer.isEmpty && atEnd { return nil }

            if skippingLongLine {
                guard let nl = buffer.firstIndex(of: 0x0A) else { continue }
                skippingLongLine = false
                line += 1
                carry = Array(buffer[(nl + 1)...])
                continue
            }

            let cut = buffer.withUnsafeBufferPointer { findCut($0) }
            if cut.boundary > 0 {
                carry = Array(buffer[cut.boundary...])
                buffer.removeSubrange(cut.boundary...)
                return take(buffer, lines: cut.lines, hasQuotes: cut.hasQuotes)
            }
            if atEnd {
                if cut.quoteOpen {
                    return unreadableFirstLine(of: buffer, "broken quoting: a quoted field opened on this line is never closed")
                }
                return take(buffer, lines: cut.lines, hasQuotes: cut.hasQuotes)
            }
            if buffer.count >= maxRecordBytes {
                if cut.quoteOpen {
                    return unreadableFirstLine(
                        of: buffer, "broken quoting: a quoted field opened on this line is not closed within \(maxRecordBytes) bytes")
                }
                skippingLongLine = true
                let chunk = DelimitedChunk(
                    bytes: [], firstLine: line, hasQuotes: false,
                    unreadableReason: "record longer than \(maxRecordBytes) bytes")
                return chunk
            }
            carry = buffer
        }
    }

    private func take(_ bytes: [UInt8], lines: Int, hasQuotes: Bool) -> DelimitedChunk {
        let chunk = DelimitedChunk(bytes: bytes, firstLine: line, hasQuotes: hasQuotes, unreadableReason: nil)
        line += lines
        return chunk
    }

    private func unreadableFirstLine(of buffer: [UInt8], _ reason: String) -> DelimitedChunk {
        let nl = buffer.firstIndex(of: 0x0A) ?? buffer.count
        var record = Array(buffer[..<nl])
        if record.last == 0x0D { record.removeLast() }
        carry = nl < buffer.count ? Array(buffer[(nl + 1)...]) : []
        let chunk = DelimitedChunk(bytes: record, firstLine: line, hasQuotes: true, unreadableReason: reason)
        line += 1
        return chunk
    }

    /// Reads until `buffer` holds at least `chunkBytes` or the input ends.
    private func fill(_ buffer: inout [UInt8]) throws(BatchResolveError) {
        let target = buffer.count + chunkBytes
        buffer.reserveCapacity(target)
        while !atEnd && buffer.count < target {
            let room = target - buffer.count
            var failure: BatchResolveError?
            // Read through a block allocated once, so that a source handing out a few bytes
            // at a time (an upload in small chunks) costs no zeroing of the whole room per read.
            if block.isEmpty { block = [UInt8](repeating: 0, count: chunkBytes) }
            let n = block.withUnsafeMutableBytes { raw -> Int in
                do throws(BatchResolveError) {
                    return try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<min(room, raw.count)]))
                } catch {
                    failure = error
                    return 0
                }
            }
            buffer.append(contentsOf: block[..<n])
            if let failure { throw failure }
            if n == 0 { atEnd = true }
        }
        if atStart && buffer.count >= 3 {
            atStart = false
            if buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { buffer.removeFirst(3) }
        } else if atEnd {
            atStart = false
        }
    }

    private struct Cut {
        var boundary: Int
        var lines: Int
        var hasQuotes: Bool
        var quoteOpen: Bool
    }

    /// Where the last complete record ends, and how many line breaks lie before that.
    private func findCut(_ b: UnsafeBufferPointer<UInt8>) -> Cut {
        let n = b.count
        guard n > 0 else { return Cut(boundary: 0, lines: 0, hasQuotes: false, quoteOpen: false) }
        let hasQuotes = quoteAware && memchr(b.baseAddress!, Int32(UInt8(ascii: "\"")), n) != nil
        if !hasQuotes {
            var last = n - 1
            while last >= 0 && b[last] != 0x0A { last -= 1 }
            let boundary = last + 1
            return Cut(
                boundary: boundary, lines: Self.countLines(UnsafeBufferPointer(rebasing: b[..<boundary])),
                hasQuotes: false, quoteOpen: false)
        }
        // The same states CSVRecordCursor moves through, so both agree on where records end.
        var state = CSVScanState.fieldStart
        var lines = 0, boundary = 0, linesAtBoundary = 0
        for i in 0..<n {
            let c = b[i]
            if c == 0x0A {
                lines += 1
                if state != .quoted {
                    state = .fieldStart
                    boundary = i + 1
                    linesAtBoundary = lines
                    continue
                }
            }
            state = state.after(c)
        }
        return Cut(
            boundary: boundary, lines: boundary == 0 ? lines : linesAtBoundary,
            hasQuotes: true, quoteOpen: state == .quoted)
    }

    package static func countLines(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for c in b where c == 0x0A { count += 1 }
        return count
    }
}

/// Where a CSV scanner stands between two bytes, for any byte but a line feed.
package enum CSVScanState {
    case fieldStart, unquoted, quoted, quoteInQuoted, junkAfterQuote

    @inline(__always)
    package func after(_ c: UInt8) -> CSVScanState {
        switch self {
        case .fieldStart:
            return c == UInt8(ascii: "\"") ? .quoted : c == UInt8(ascii: ",") ? .fieldStart : .unquoted
        case .unquoted:
            return c == UInt8(ascii: ",") ? .fieldStart : .unquoted
        case .quoted:
            return c == UInt8(ascii: "\"") ? .quoteInQuoted : .quoted
        case .quoteInQuoted:
            if c == UInt8(ascii: "\"") { return .quoted }
            if c == UInt8(ascii: ",") { return .fieldStart }
            return c == 0x0D ? .quoteInQuoted : .junkAfterQuote
        case .junkAfterQuote:
            return .junkAfterQuote
        }
    }
}

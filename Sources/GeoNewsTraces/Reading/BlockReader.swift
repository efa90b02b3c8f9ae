/// A window onto an input that keeps only the bytes not yet consumed: the scanners of
/// structured formats (GeoJSON, GPX) read through it, so memory is bounded by the largest
/// single element, not by the file.
final class BlockReader {
    private let source: ByteSource
    private let blockBytes: Int
    /// Unconsumed bytes; `bytes[0]` is at input offset `consumedOffset`.
    private(set) var bytes: [UInt8] = []
    private(set) var atEnd = false
    private var block: [UInt8] = []
    private var atStart = true

    init(source: ByteSource, blockBytes: Int) {
        self.source = source
        self.blockBytes = max(4096, blockBytes)
    }

    /// Appends the next block; returns false at the end of the input.
    func readMore() throws(BatchResolveError) -> Bool {
        guard !atEnd else { return false }
        // Read into a block allocated once: a source that hands out a few bytes at a time
        // (an upload in small chunks) must not cost a block's worth of zeroing per read.
        if block.isEmpty { block = [UInt8](repeating: 0, count: blockBytes) }
        var failure: BatchResolveError?
        let n = block.withUnsafeMutableBytes { raw -> Int in
            do throws(BatchResolveError) { return try source.read(into: raw) } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        bytes.append(contentsOf: block[..<n])
        if n == 0 { atEnd = true; return false }
        if atStart, bytes.count >= 3 {
            atStart = false
            if bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { bytes.removeFirst(3) }
        }
        return true
    }

    /// Forgets the first `n` bytes.
    func consume(_ n: Int) {
        bytes.removeFirst(min(n, bytes.count))
    }
}

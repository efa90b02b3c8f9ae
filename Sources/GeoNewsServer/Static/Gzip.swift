import CZlib

/// gzip (RFC 1952) through zlib, called by ``AnswerEncoding/gzip(_:level:)`` alone: for files
/// compressed once when first asked for and for answers compressed as they are sent.
enum Gzip {
    /// `bytes` as one gzip member; `nil` if zlib fails.
    ///
    /// - Parameter level: zlib's 1 (fastest) … 9 (smallest); static files take 9, answers the
    ///   default 6, which gives most of 9's saving at a third of its time.
    static func compress(_ bytes: [UInt8], level: Int32 = Z_BEST_COMPRESSION) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks for a gzip header and trailer instead of zlib's.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[0..<Int(stream.total_out)])
    }
}

import CZlib
import GeoNewsData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a pack's bytes come from: a file read piece by piece, or bytes already in memory.
package enum PackSource {
    case file(Int32)
    case memory(UnsafeRawBufferPointer)

    /// Up to `count` bytes at `offset` into `buffer`; how many were read.
    package func read(at offset: UInt64, count: Int, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        switch self {
        case .file(let fd):
            while true {
                let n = pread(fd, buffer, count, off_t(offset))
                if n < 0 && errno == EINTR { continue }
                return max(n, 0)
            }
        case .memory(let bytes):
            guard offset < UInt64(bytes.count) else { return 0 }
            let n = min(count, bytes.count - Int(offset))
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + Int(offset), byteCount: n)
            return n
        }
    }
}

/// One zlib stream of a pack, inflated through a small buffer as its bytes are asked for, and
/// never beyond the size its header declares.
package final class PackStream {
    private static let chunk = 1 << 16
    private let source: PackSource
    // The stream is read by one thread, and no access to these fields overlaps another: the
    // dynamic exclusivity checks a class's stored properties would get cost a fifth of an
    // unpack's time (the per-byte reads below are its inner loop).
    @exclusivity(unchecked) private var next: UInt64
    private let end: UInt64
    /// Where the stream lies in the pack.
    package let range: Range<UInt64>
    private let declared: UInt64
    @exclusivity(unchecked) private var produced: UInt64 = 0
    private let name: String
    private let path: String
    private let z = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    private let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var available = 0
    @exclusivity(unchecked) private var ended = false

    package init(source: PackSource, range: Range<UInt64>, inflated: UInt64, name: String, path: String) throws(DataError) {
        self.source = source
        self.range = range
        next = range.lowerBound
        end = range.upperBound
        declared = inflated
        self.name = name
        self.path = path
        z.initialize(to: z_stream())
        guard inflateInit_(z, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            input.deallocate(); output.deallocate(); z.deallocate()
            throw .unreadable(path: path, reason: "zlib could not start")
        }
    }

    deinit {
        inflateEnd(z)
        z.deallocate()
        input.deallocate()
        output.deallocate()
    }

    package func byte() throws(DataError) -> UInt8 {
        if position == available { try refill() }
        defer { position += 1 }
        return output[position]
    }

    /// A little-endian word of `T`'s size, read in one piece when the buffer holds it.
    @inline(__always)
    package func word<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(DataError) -> T {
        let size = MemoryLayout<T>.size
        if available - position >= size {
            defer { position += size }
            return T(littleEndian: UnsafeRawPointer(output + position).loadUnaligned(as: T.self))
        }
        var w: T = 0
        for i in 0..<size { w |= T(try byte()) << (8 * i) }
        return w
    }

    @inline(__always) package func word64() throws(DataError) -> UInt64 { try word(UInt64.self) }
    @inline(__always) package func word32() throws(DataError) -> UInt32 { try word(UInt32.self) }

    /// A zigzag-encoded LEB128 varint of up to 64 bits, as a signed difference.
    @inline(__always)
    package func zigzag64() throws(DataError) -> Int64 {
        var z: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 64 {
            let b = try byte()
            z |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1) }
            shift += 7
        }
        throw corrupt("a varint longer than 10 bytes")
    }

    /// A LEB128 varint of at most `limit`.
    package func varint(limit: UInt32 = UInt32(UInt16.max)) throws(DataError) -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, through: 28, by: 7) {
            let b = try byte()
            value |= UInt32(b & 0x7F) << UInt32(shift)
            if b & 0x80 == 0 {
                guard value <= limit else { throw corrupt("a count of \(value), above \(limit)") }
                return value
            }
        }
        throw corrupt("a varint longer than 5 bytes")
    }

    /// Copies `count` bytes into `sink`.
    package func copy(_ count: UInt64, to sink: PackOutput) throws(DataError) {
        var left = count
        while left > 0 {
            if position == available { try refill() }
            let n = min(Int(min(left, UInt64(Int.max))), available - position)
            try sink.write(UnsafeRawBufferPointer(start: output + position, count: n))
            position += n
            left -= UInt64(n)
        }
    }

    /// Checks that every declared byte was read and that the stream ends there (zlib checks
    /// its Adler-32 at the end).
    package func finish() throws(DataError) {
        guard position == available else { throw corrupt("bytes left unread") }
        while !ended {
            try step()
            guard available == 0 else { throw corrupt("longer than its declared \(declared) bytes") }
        }
        guard produced == declared else { throw corrupt("\(produced) bytes where \(declared) are declared") }
    }

    private func refill() throws(DataError) {
        repeat {
            guard !ended else { throw corrupt("ends early") }
            try step()
        } while available == 0
    }

    /// One call of inflate into the emptied output buffer.
    private func step() throws(DataError) {
        position = 0
        available = 0
        if z.pointee.avail_in == 0 {
            let n = next < end ? source.read(at: next, count: Int(min(UInt64(Self.chunk), end - next)), into: input) : 0
            guard n > 0 else { throw corrupt("truncated") }
            next += UInt64(n)
            z.pointee.next_in = input
            z.pointee.avail_in = uInt(n)
        }
        z.pointee.next_out = output
        z.pointee.avail_out = uInt(Self.chunk)
        let status = inflate(z, Z_NO_FLUSH)
        available = Self.chunk - Int(z.pointee.avail_out)
        produced += UInt64(available)
        guard produced <= declared else { throw corrupt("longer than its declared \(declared) bytes") }
        switch status {
        case Z_STREAM_END: ended = true
        case Z_OK: break
        case Z_BUF_ERROR where available > 0: break
        default: throw corrupt("zlib error \(status)")
        }
    }

    private func corrupt(_ reason: String) -> DataError {
        .corrupt(path: path, reason: "pack stream \(name): \(reason)")
    }
}

/// The rebuilt file's bytes on their way out: counted against the declared size, fed to the
/// running checksum, and handed on in chunks of ``chunk`` bytes.
package final class PackOutput {
    private static let chunk = 1 << 16
    private let limit: UInt64
    // Written by one thread, with no overlapping access (see ``PackStream``): unchecked, as the
    // per-word writes are an unpack's inner loop.
    @exclusivity(unchecked) private(set) var count: UInt64 = 0
    @exclusivity(unchecked) private var checksum: RunningChecksum
    /// ``chunk`` bytes, the first `filled` of them waiting to be handed on.
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk + 8, alignment: 8)
    @exclusivity(unchecked) private var filled = 0
    private let sink: (UnsafeRawBufferPointer) throws(DataError) -> Void
    private let path: String

    /// - Parameter headerSize: the bytes of the file's header, which its checksum leaves out.
    package init(
        limit: UInt64, path: String, headerSize: Int = AreaIndexFormat.headerSize,
        sink: @escaping (UnsafeRawBufferPointer) throws(DataError) -> Void
    ) {
        checksum = RunningChecksum(skipping: headerSize)
        self.limit = limit
        self.path = path
        self.sink = sink
    }

    deinit { buffer.deallocate() }

    /// A little-endian 16-bit word.
    @inline(__always)
    package func word(_ w: UInt16) throws(DataError) {
        buffer.storeBytes(of: w.littleEndian, toByteOffset: filled, as: UInt16.self)
        filled += 2
        if filled >= Self.chunk { try flush() }
    }

    package func byte(_ b: UInt8) throws(DataError) {
        buffer.storeBytes(of: b, toByteOffset: filled, as: UInt8.self)
        filled += 1
        if filled >= Self.chunk { try flush() }
    }

    /// A little-endian 32-bit word.
    @inline(__always)
    package func word32(_ w: UInt32) throws(DataError) {
        buffer.storeBytes(of: w.littleEndian, toByteOffset: filled, as: UInt32.self)
        filled += 4
        if filled >= Self.chunk { try flush() }
    }

    /// A little-endian 64-bit word.
    @inline(__always)
    package func word64(_ w: UInt64) throws(DataError) {
        buffer.storeBytes(of: w.littleEndian, toByteOffset: filled, as: UInt64.self)
        filled += 8
        if filled >= Self.chunk { try flush() }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(DataError) {
        var rest = bytes
        while !rest.isEmpty {
            let n = min(rest.count, Self.chunk - filled)
            (buffer + filled).copyMemory(from: rest.baseAddress!, byteCount: n)
            filled += n
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
            if filled >= Self.chunk { try flush() }
        }
    }

    /// Hands on what is buffered; the checksum of everything written so far.
    package func flush() throws(DataError) {
        count += UInt64(filled)
        guard count <= limit else { throw .corrupt(path: path, reason: "the pack rebuilds more than its declared \(limit) bytes") }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: filled)
        checksum.add(bytes)
        try sink(bytes)
        filled = 0
    }

    package var finalChecksum: UInt64 { checksum.value }
}

/// ``CountryIndexFormat/checksum(_:)`` of a file's bytes after its header, computed as they
/// pass; 0 when that part is not a whole number of 32-byte blocks (as the record has it).
package struct RunningChecksum {
    private var skip: Int
    private var a: UInt64 = 0x9E37_79B9_7F4A_7C15, b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var c: UInt64 = 0x1656_67B1_9E37_79F9, d: UInt64 = 0x85EB_CA77_C2B2_AE63
    private var pending: [UInt8] = []
    private var total = 0

    package init(skipping header: Int) { skip = header }

    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        if skip > 0 {
            let n = min(skip, rest.count)
            skip -= n
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
        total += rest.count
        if !pending.isEmpty {
            let n = min(32 - pending.count, rest.count)
            pending += rest[rest.startIndex..<(rest.startIndex + n)]
            rest = UnsafeRawBufferPointer(rebasing: rest[(rest.startIndex + n)...])
            if pending.count == 32 {
                pending.withUnsafeBytes { block($0, 0) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        var i = 0
        while i + 32 <= rest.count {
            block(rest, i)
            i += 32
        }
        pending += rest[(rest.startIndex + i)...]
    }

    private mutating func block(_ p: UnsafeRawBufferPointer, _ at: Int) {
        let m: UInt64 = 0xFF51_AFD7_ED55_8CCD
        a = (a ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt64.self))) &* m
        b = (b ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))) &* m
        c = (c ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))) &* m
        d = (d ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self))) &* m
        a ^= a >> 29; b ^= b >> 31; c ^= c >> 27; d ^= d >> 33
    }

    package var value: UInt64 {
        guard pending.isEmpty else { return 0 }
        let m: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var h = a ^ (b &* 31) ^ (c &* 1009) ^ (d &* 65537) ^ UInt64(total)
        h ^= h >> 33
        h &*= m
        h ^= h >> 33
        return h
    }
}

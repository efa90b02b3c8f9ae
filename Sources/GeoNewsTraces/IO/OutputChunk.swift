/// A growable run of output bytes owned by one thread at a time.
///
/// Chunks of output are built here by a worker and handed whole to the writer, so the inner
/// loop appends through a raw pointer with no per-byte uniqueness checks of an `Array`.
final class OutputChunk: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// Rows written with a region, by the region's code (ISO 3166-2, else GeoNames'), for the
    /// summary's count by region.
    var regionCounts: [String: Int] = [:]
    /// Rows written with a region by the fast path, by region index (empty for none), and the
    /// codes they are counted under: the writer adds them up across chunks by index and names
    /// them once, at the end of the run (a few thousand hashed codes a chunk cost 3 % of a
    /// `--region` run).
    private(set) var regionRows: [Int] = []
    private(set) var regionCodes: [String] = []

    /// Adds `counts` (rows per region index, named by `codes`) to ``regionRows``.
    func addRegionRows(_ counts: UnsafeBufferPointer<Int>, codes: [String]) {
        if regionRows.isEmpty { regionCodes = codes }
        regionRows.addCounts(counts, "one region index per chunk")
    }

    init(capacity: Int = 1 << 16) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ start: UnsafePointer<UInt8>, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        Self.copy(from: start, to: base + count, count: n)
        count += n
    }

    /// Lets `write` put up to `limit` bytes at the end through a pointer, and keeps the number
    /// it returns: a row's columns are written with one check for room instead of one a byte.
    @inline(__always)
    func append(upTo limit: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(limit)
        let n = write(base + count)
        precondition(n <= limit, "wrote past the room asked for")
        count += n
    }

    /// Copies `n` bytes, short runs with word moves.
    @inline(__always)
    static func copy(from start: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count n: Int) {
        if n <= 32 {
            if n > 0 { copyShort(from: UnsafeRawPointer(start), to: UnsafeMutableRawPointer(destination), count: n) }
        } else {
            destination.update(from: start, count: n)
        }
    }

    /// Copies 1…32 bytes with a few unaligned word moves that overlap in the middle. Most of
    /// what a row appends is this short (a country code, a reason, a zone, the record itself),
    /// and a call of `memmove` for each costs more than the copy.
    @inline(__always)
    private static func copyShort(from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer, count n: Int) {
        @inline(__always) func move<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: offset, as: Word.self), toByteOffset: offset, as: Word.self)
        }
        if n >= 16 {
            move(UInt64.self, at: 0)
            move(UInt64.self, at: 8)
            move(UInt64.self, at: n - 16)
            move(UInt64.self, at: n - 8)
        } else if n >= 8 {
            move(UInt64.self, at: 0)
            move(UInt64.self, at: n - 8)
        } else if n >= 4 {
            move(UInt32.self, at: 0)
            move(UInt32.self, at: n - 4)
        } else {
            move(UInt8.self, at: 0)
            move(UInt8.self, at: n / 2)
            move(UInt8.self, at: n - 1)
        }
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        append(start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Drops the first `n` bytes (the leading separator of a GeoJSON feature list).
    func dropFirst(_ n: Int) {
        let n = min(n, count)
        (base).update(from: base + n, count: count - n)
        count -= n
    }

    /// Appends `value` rounded to three decimals ("12.345"), the resolution of `distance_km`:
    /// metres. Non-finite values, which no distance should be, are written as 0.
    func appendKilometres(_ value: Double) {
        append(upTo: Self.kilometresLimit) { Self.writeKilometres(value, to: $0) }
    }

    /// The most bytes ``writeKilometres(_:to:)`` writes: `String(Double)`'s longest form.
    static let kilometresLimit = 24

    /// Writes `value` as ``appendKilometres(_:)`` does at `p`, and returns the byte count.
    @inline(__always)
    static func writeKilometres(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let scaled = value.isFinite ? value * 1000 : 0
        let magnitude = scaled.magnitude
        guard magnitude < 9.0e15 else {
            var text = String(value)
            return text.withUTF8 { t in
                let n = min(t.count, kilometresLimit)
                p.update(from: t.baseAddress!, count: n)
                return n
            }
        }
        // Rounded half away from zero, as `rounded()` does: the truncation, up one when the
        // part cut off (exact below 2^52) is at least a half. Below 9e15 the truncation fits a
        // signed integer, whose conversion is one instruction.
        var m = UInt64(Int64(magnitude))
        if magnitude - Double(m) >= 0.5 { m &+= 1 }
        var n = 0
        if scaled < 0 && m > 0 {
            p[0] = UInt8(ascii: "-")
            n = 1
        }
        var whole = m / 1000
        let fraction = Int(truncatingIfNeeded: m % 1000)
        // The whole part's digits from the last, two at a time, into the places they end in.
        var digits = 1
        var bound: UInt64 = 10
        while whole >= bound && digits < 16 {
            digits &+= 1
            bound &*= 10
        }
        let pairs = digitPairs.utf8Start
        var j = n &+ digits
        while whole >= 100 {
            let q = whole / 100
            let r = Int(truncatingIfNeeded: whole &- q &* 100)
            j &-= 2
            p[j] = pairs[2 &* r]
            p[j &+ 1] = pairs[2 &* r &+ 1]
            whole = q
        }
        if whole >= 10 {
            let r = Int(truncatingIfNeeded: whole)
            p[n] = pairs[2 &* r]
            p[n &+ 1] = pairs[2 &* r &+ 1]
        } else {
            p[n] = UInt8(truncatingIfNeeded: whole) &+ 48
        }
        n &+= digits
        p[n] = UInt8(ascii: ".")
        p[n &+ 1] = UInt8(truncatingIfNeeded: fraction / 100) &+ 48
        let last = fraction % 100
        p[n &+ 2] = pairs[2 &* last]
        p[n &+ 3] = pairs[2 &* last &+ 1]
        return n &+ 4
    }

    /// "00", "01", … "99" one after another: the two digits of r at 2r.
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}

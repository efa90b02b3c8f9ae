/// A growable run of output bytes owned by one thread at a time.
///
/// Chunks of output are built here by a worker and handed whole to the writer, so the inner
/// loop appends through a raw pointer with no per-byte uniqueness checks of an `Array`.
final class OutputChunk: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

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
        (base + count).update(from: start, count: n)
        count += n
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

    /// Appends a non-negative or negative integer in decimal.
    func appendInteger(_ value: Int) {
        reserve(21)
        var v = value.magnitude
        if value < 0 { base[count] = UInt8(ascii: "-"); count += 1 }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(truncatingIfNeeded: v % 10) + 48
                v /= 10
                n += 1
            } while v > 0
            while n > 0 { n -= 1; base[count] = d[n]; count += 1 }
        }
    }

    /// Appends `value` rounded to three decimals ("12.345"), the resolution of `distance_km`:
    /// metres. Non-finite values, which no distance should be, are written as 0.
    func appendKilometres(_ value: Double) {
        let milli = value.isFinite ? (value * 1000).rounded() : 0
        guard milli.magnitude < 9.0e15 else { return append(String(value)) }
        let m = Int(milli)
        if m < 0 { append(UInt8(ascii: "-")) }
        appendInteger(m.magnitude / 1000 == 0 ? 0 : Int(m.magnitude / 1000))
        append(UInt8(ascii: "."))
        let frac = Int(m.magnitude % 1000)
        append(UInt8(frac / 100) + 48)
        append(UInt8(frac / 10 % 10) + 48)
        append(UInt8(frac % 10) + 48)
    }
}

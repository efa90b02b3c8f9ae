/// Stable least-significant-digit radix sort of 64-bit keys carrying a 32-bit payload, 13 bits
/// per pass. Linear in the count, so sorting a million points or a level's new clusters costs a
/// few passes over memory rather than n log n comparisons. Scratch space is kept between calls.
struct RadixSorter {
    private var keyScratch = WorkBuffer<UInt64>(uninitializedCount: 0)
    private var payloadScratch = WorkBuffer<UInt32>(uninitializedCount: 0)
    private let histogram = WorkBuffer<Int>(repeating: 0, count: 1 << digitBits)

    private static let digitBits = 13

    /// Sorts the first `count` of `keys` ascending by their low `bits` bits and permutes
    /// `payload` alongside. Passes in which every key has the same digit are skipped.
    mutating func sort(keys: WorkBuffer<UInt64>, payload: WorkBuffer<UInt32>, count n: Int, bits: Int) {
        precondition(keys.count >= n && payload.count >= n, "fewer keys or payloads than count")
        guard n > 1 else { return }
        if keyScratch.count < n {
            keyScratch = WorkBuffer(uninitializedCount: n)
            payloadScratch = WorkBuffer(uninitializedCount: n)
        }
        let inScratch = Self.sort((keys.view, payload.view), (keyScratch.view, payloadScratch.view), histogram.view, n, bits)
        if inScratch {
            keys.copy(from: keyScratch, count: n)
            payload.copy(from: payloadScratch, count: n)
        }
    }

    /// The passes, ping-ponging between the caller's buffers and the scratch; returns whether
    /// the sorted values ended in the scratch.
    private static func sort(
        _ arrays: (WorkView<UInt64>, WorkView<UInt32>), _ scratch: (WorkView<UInt64>, WorkView<UInt32>),
        _ h: WorkView<Int>, _ n: Int, _ bits: Int
    ) -> Bool {
        let radix = 1 << digitBits
        let mask = UInt64(radix - 1)
        var (src, dst) = (arrays, scratch)
        var inScratch = false
        var shift = 0
        while shift < bits {
            let s = UInt64(shift)
            shift += digitBits
            for i in 0..<radix { h[i] = 0 }
            for i in 0..<n { h[Int(truncatingIfNeeded: (src.0[i] >> s) & mask)] += 1 }
            if h[Int(truncatingIfNeeded: (src.0[0] >> s) & mask)] == n { continue }
            var sum = 0
            for i in 0..<radix { let c = h[i]; h[i] = sum; sum += c }
            for i in 0..<n {
                let key = src.0[i]
                let d = Int(truncatingIfNeeded: (key >> s) & mask)
                let at = h[d]
                h[d] = at + 1
                dst.0[at] = key
                dst.1[at] = src.1[i]
            }
            swap(&src, &dst)
            inScratch.toggle()
        }
        return inScratch
    }
}

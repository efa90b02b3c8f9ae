import GeoNews
import GeoNewsBenchmarking

/// What every suite shares: the options, the loaded data and the figures being recorded.
final class BenchContext {
    let options: BenchOptions
    let directory: DataDirectory
    let figures = Figures()
    private var loaded: CountryResolver?

    init(options: BenchOptions) throws {
        self.options = options
        directory = try options.data.map { DataDirectory(path: $0) } ?? DataDirectory.locate()
    }

    /// The resolver every suite shares, loaded on first use (after the `load` suite has
    /// measured memory in a process that has not mapped the index yet).
    func resolver() throws -> CountryResolver {
        if let loaded { return loaded }
        let r = try CountryResolver.load(from: directory)
        loaded = r
        return r
    }

    /// `name` inside the output folder, when there is one.
    func outputPath(_ name: String) -> String? { options.out.map { $0 + "/" + name } }
}

/// Keeps a computed value alive so the optimiser cannot drop the loop that made it.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A pointer that worker threads write disjoint slots of; the caller waits for them all.
struct SharedSlots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
    init(_ base: UnsafeMutablePointer<T>) { self.base = base }
    subscript(i: Int) -> T {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }
}

/// Times passes of `body` over `points` split across `threads` threads sharing the same
/// read-only state; returns the median and the fastest wall time of a whole pass in seconds.
@inline(__always)
func timedPasses(
    _ points: [Coordinate], threads: Int, runs: Int,
    _ body: @escaping @Sendable (Coordinate) -> Int
) -> (median: Double, best: Double) {
    let sums = UnsafeMutablePointer<Int>.allocate(capacity: threads)
    defer { sums.deallocate() }
    sums.initialize(repeating: 0, count: threads)
    let slots = SharedSlots(sums)
    let time = Measure.timings(runs: runs) {
        onThreads(threads) { w in
            var sum = 0
            for i in share(of: points.count, worker: w, workers: threads) { sum &+= body(points[i]) }
            slots[w] &+= sum
        }
    }
    consume(sums[0])
    return time
}

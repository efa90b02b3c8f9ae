#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock and CPU timing, and the median of repeated timings, as every benchmark of GeoNews
/// takes them.
public enum Measure {
    /// Monotonic wall time in seconds, from an arbitrary origin.
    public static func now() -> Double { clock(CLOCK_MONOTONIC) }

    /// CPU time of the calling thread in seconds: what a single-threaded step cost, whatever
    /// else the machine runs.
    public static func threadCPUSeconds() -> Double { clock(CLOCK_THREAD_CPUTIME_ID) }

    /// Wall seconds one call of `body` takes.
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let t0 = now()
        try body()
        return now() - t0
    }

    /// The median of `runs` wall timings of `body`, in seconds (at least one run).
    public static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        try timings(runs: runs, body).median
    }

    /// The median and the fastest of `runs` wall timings of `body`, in seconds (at least one
    /// run). On a shared machine the fastest is the one least disturbed by other processes.
    public static func timings(runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, best: Double) {
        var times: [Double] = []
        for _ in 0..<max(1, runs) { times.append(try seconds(body)) }
        return (median(times), times.min()!)
    }

    /// The middle value, or for an even count the mean of the middle two; NaN for no values.
    public static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    private static func clock(_ id: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

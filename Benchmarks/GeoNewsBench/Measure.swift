import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock timing, repetition and the process's resident memory.
enum Measure {
    /// Monotonic time in seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Seconds one call of `body` takes.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let t0 = now()
        try body()
        return now() - t0
    }

    /// The median of `runs` timings of `body`, in seconds.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        try timings(runs: runs, body).median
    }

    /// The median and the fastest of `runs` timings of `body`, in seconds. On a shared machine
    /// the fastest is the one least disturbed by other processes.
    static func timings(runs: Int, _ body: () throws -> Void) rethrows -> (median: Double, best: Double) {
        var times: [Double] = []
        for _ in 0..<max(1, runs) { times.append(try seconds(body)) }
        return (Self.median(times), times.min()!)
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Runs `body(worker)` on `threads` threads at once and waits for all of them. Each worker
    /// gets its own thread, so per-thread state (GEOS contexts) stays on one thread.
    static func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard threads > 1 else { body(0); return }
        let done = DispatchGroup()
        for worker in 0..<threads {
            done.enter()
            let thread = Thread {
                body(worker)
                done.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        done.wait()
    }

    /// A field of /proc/self/status in kilobytes (`VmRSS`, `RssFile`, `RssAnon`, `VmHWM`).
    static func statusKB(_ field: String) -> Int? {
        guard let f = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(f) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, f) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix(field + ":") else { continue }
            return Int(text.dropFirst(field.count + 1).filter(\.isNumber))
        }
        return nil
    }

    /// Resident memory in megabytes (VmRSS).
    static func residentMB() -> Double { Double(statusKB("VmRSS") ?? 0) / 1024 }
}

/// Spread `count` items over `workers`: the half-open range worker `w` takes.
func share(of count: Int, worker w: Int, workers: Int) -> Range<Int> {
    (count * w / workers)..<(count * (w + 1) / workers)
}

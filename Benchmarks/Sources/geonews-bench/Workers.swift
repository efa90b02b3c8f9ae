import Foundation

/// Runs `body(worker)` on `threads` threads at once and waits for all of them. Each worker gets
/// its own thread, so per-thread state (GEOS contexts) stays on one thread.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
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

/// Spread `count` items over `workers`: the half-open range worker `w` takes.
func share(of count: Int, worker w: Int, workers: Int) -> Range<Int> {
    (count * w / workers)..<(count * (w + 1) / workers)
}

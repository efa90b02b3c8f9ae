/// Runs a reader, several workers and a writer at once, keeping the writer's order equal to the
/// reader's and the number of chunks alive bounded.
///
/// ```
/// reader (own thread) ──► pending ──► workers (N threads) ──► finished[seq] ──► writer (caller)
/// ```
/// The reader may only start a chunk when fewer than `maxInFlight` are alive; the writer
/// frees a slot after writing. Memory is therefore about `maxInFlight × (chunk in + chunk out)`
/// however large the input. The first failure on either side stops both.
final class OrderedChunkPipeline<Input, Output>: @unchecked Sendable {
    // Every field below is guarded by `condition`.
    private let condition = PipelineCondition()
    private var pending: [(sequence: Int, input: Input)] = []
    private var finished: [Int: Output] = [:]
    private var inFlight = 0
    private var produced = 0
    private var readerDone = false
    private var workersRunning = 0
    private var failure: BatchResolveError?
    private var cancelled = false

    private let workerCount: Int
    private let maxInFlight: Int

    init(workerCount: Int, maxInFlight: Int) {
        self.workerCount = max(1, workerCount)
        self.maxInFlight = max(2, maxInFlight)
    }

    /// Runs the three stages to the end and returns when everything has been consumed.
    ///
    /// - Parameters:
    ///   - read: called once on a new thread; calls `emit` per chunk in order, and must stop
    ///     when `emit` returns false (the run was cancelled).
    ///   - process: called on worker threads, any order.
    ///   - write: called on the calling thread, in the order chunks were emitted.
    func run(
        read: @escaping @Sendable (_ emit: (Input) -> Bool) throws(BatchResolveError) -> Void,
        process: @escaping @Sendable (Input) -> Output,
        write: (Output) throws(BatchResolveError) -> Void
    ) throws(BatchResolveError) {
        workersRunning = workerCount
        for _ in 0..<workerCount {
            startPipelineThread(stackSize: 1 << 20) { [self] in workLoop(process) }
        }
        startPipelineThread { [self] in
            do throws(BatchResolveError) {
                try read { input in emit(input) }
                finishReading(nil)
            } catch {
                finishReading(error)
            }
        }

        var next = 0
        var writeFailure: BatchResolveError?
        while true {
            condition.lock()
            while finished[next] == nil && !(readerDone && next == produced) && failure == nil {
                condition.wait()
            }
            if failure != nil || finished[next] == nil {
                condition.unlock()
                break
            }
            let output = finished.removeValue(forKey: next)!
            condition.unlock()
            do {
                try write(output)
            } catch {
                writeFailure = error
                break
            }
            condition.lock()
            inFlight -= 1
            condition.broadcast()
            condition.unlock()
            next += 1
        }

        // Stop the other stages and wait for them, so no thread outlives the run.
        condition.lock()
        if writeFailure != nil || failure != nil { cancelled = true }
        condition.broadcast()
        while !readerDone || workersRunning > 0 { condition.wait() }
        let readFailure = failure
        condition.unlock()
        if let writeFailure { throw writeFailure }
        if let readFailure { throw readFailure }
    }

    private func emit(_ input: Input) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while inFlight >= maxInFlight && !cancelled { condition.wait() }
        if cancelled { return false }
        pending.append((produced, input))
        produced += 1
        inFlight += 1
        condition.broadcast()
        return true
    }

    private func finishReading(_ error: BatchResolveError?) {
        condition.lock()
        readerDone = true
        if let error, failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    private func workLoop(_ process: (Input) -> Output) {
        while true {
            condition.lock()
            while pending.isEmpty && !readerDone && !cancelled { condition.wait() }
            if cancelled || pending.isEmpty {
                workersRunning -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let (sequence, input) = pending.removeFirst()
            condition.unlock()
            let output = process(input)
            condition.lock()
            finished[sequence] = output
            condition.broadcast()
            condition.unlock()
        }
    }
}

import Metrics
import Synchronization

/// The turns of the uploads' cluster builds (`--max-concurrent-dataset-builds`): a build holds
/// its points and index on the heap (about 300 MB for a million points), so the number running
/// at once bounds the memory uploads can take.
///
/// An upload waiting for its turn is a suspended task, never a parked thread: it waits in a
/// first-come queue of continuations, and leaves it when a turn comes, when its deadline passes
/// or when its task is cancelled, whichever is first.
package final class DatasetBuildTurns: Sendable {
    /// Builds that may run at once.
    package let capacity: Int
    /// How long an upload may wait for its turn.
    package let patience: Duration

    private struct Waiter {
        let ticket: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct Queue {
        var running = 0
        var waiters: [Waiter] = []
        /// Tickets that asked for a turn and have no answer yet; a cancellation that finds its
        /// ticket here before the ticket has queued removes it, and the ticket then answers
        /// `false` at once instead of queueing.
        var open: Set<UInt64> = []
        var nextTicket: UInt64 = 0
    }

    private let queue = Mutex(Queue())
    private let runningGauge = Gauge(label: DatasetBuildTurns.metric, dimensions: [("state", "running")])
    private let waitingGauge = Gauge(label: DatasetBuildTurns.metric, dimensions: [("state", "waiting")])
    /// The label of the gauges, named in ``PrometheusNaming/families``.
    package static let metric = "geonews.dataset_builds"

    package init(capacity: Int, patience: Duration) {
        self.capacity = capacity
        self.patience = patience
        runningGauge.record(0)
        waitingGauge.record(0)
    }

    /// Waits, suspended, for a turn to build; `true` once the caller holds one (it must call
    /// ``finish()`` when its build is over), `false` when ``patience`` passed first or the task
    /// was cancelled.
    package func begin() async -> Bool {
        let ticket = queue.withLock { queue -> UInt64? in
            if queue.running < capacity {
                queue.running += 1
                record(queue)
                return nil
            }
            queue.nextTicket += 1
            queue.open.insert(queue.nextTicket)
            return queue.nextTicket
        }
        guard let ticket else { return true }
        let timer = Task { [patience] in
            try await Task.sleep(for: patience)
            self.giveUp(ticket)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = queue.withLock { queue in
                    guard queue.open.contains(ticket) else { return false }
                    // A turn may have come free since the first look.
                    if queue.running < capacity {
                        queue.running += 1
                        queue.open.remove(ticket)
                        record(queue)
                        return true
                    }
                    queue.waiters.append(Waiter(ticket: ticket, continuation: continuation))
                    record(queue)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            giveUp(ticket)
        }
    }

    /// Ends a turn ``begin()`` gave: the next waiter, if any, takes it over.
    package func finish() {
        let next = queue.withLock { queue -> Waiter? in
            defer { record(queue) }
            assert(queue.running > 0, "a turn ended that was never given")
            guard !queue.waiters.isEmpty else {
                queue.running -= 1
                return nil
            }
            let next = queue.waiters.removeFirst()
            queue.open.remove(next.ticket)
            return next
        }
        next?.continuation.resume(returning: true)
    }

    /// Takes `ticket` out of the queue without a turn: past its deadline, or cancelled. Does
    /// nothing to a ticket that already has its answer.
    private func giveUp(_ ticket: UInt64) {
        let waiter = queue.withLock { queue -> Waiter? in
            guard queue.open.remove(ticket) != nil else { return nil }
            guard let index = queue.waiters.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            defer { record(queue) }
            return queue.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }

    /// Builds running and uploads waiting now.
    package var load: (running: Int, waiting: Int) { queue.withLock { ($0.running, $0.waiters.count) } }

    /// Under the lock, so that the gauges never end on a stale value.
    private func record(_ queue: Queue) {
        runningGauge.record(queue.running)
        waitingGauge.record(queue.waiters.count)
    }
}

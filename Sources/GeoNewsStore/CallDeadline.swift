import PostgresNIO
import Synchronization

/// The answer of a call that did not come within its deadline.
struct DeadlinePassed: Error {
    let seconds: Int64
}

/// Runs store calls that must not hold a request forever.
enum CallDeadline {
    /// `body`'s answer, or ``DeadlinePassed`` once `seconds` have passed, whichever comes
    /// first. Past the deadline `body` is left to finish on its own, not waited for: a query stuck on a
    /// connection that no longer answers (the server gone without a reset) returns the caller
    /// at once, and the connection is closed by its own timeouts.
    static func run<T: Sendable>(seconds: Int64, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.wait(continuation)
            let work = Task {
                do {
                    outcome.settle(.success(try await body()))
                } catch {
                    outcome.settle(.failure(error))
                }
            }
            // On an event loop of NIO's, not Swift's executor: the deadline must fire even
            // while the cooperative threads are all busy.
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .seconds(seconds)) {
                // Not cancelled: a connection pool's lease may not come back from a cancellation
                // while its server is unreachable; the work ends by itself once it is back.
                outcome.settle(.failure(DeadlinePassed(seconds: seconds)))
                _ = work
            }
            outcome.onSettled { timer.cancel() }
        }
    }

    /// Resumes the continuation once, with whichever result arrives first.
    private final class Outcome<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var result: Result<T, any Error>?
            var settled: (@Sendable () -> Void)?
        }
        private let state = Mutex(State())

        func wait(_ continuation: CheckedContinuation<T, any Error>) {
            state.withLock { $0.continuation = continuation }
        }

        func onSettled(_ action: @escaping @Sendable () -> Void) {
            let now = state.withLock { state -> Bool in
                if state.result != nil { return true }
                state.settled = action
                return false
            }
            if now { action() }
        }

        /// Whether `result` was the first.
        @discardableResult
        func settle(_ result: Result<T, any Error>) -> Bool {
            let (continuation, action) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
                guard state.result == nil else { return (nil, nil) }
                state.result = result
                defer { state.continuation = nil; state.settled = nil }
                return (state.continuation, state.settled)
            }
            guard let continuation else { return false }
            continuation.resume(with: result)
            action?()
            return true
        }
    }
}

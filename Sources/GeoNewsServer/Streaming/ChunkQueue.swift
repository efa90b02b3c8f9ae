import Foundation

/// A bounded queue of byte chunks between async code (a request or response body) and a
/// thread of its own that blocks (the batch pipeline's reader or writer), so that a body
/// streams through at most `capacity` chunks of memory in each direction.
///
/// Each side waits in one of two ways. The blocking calls wait on a condition variable and
/// belong only on a dedicated thread. The async calls suspend their task on a continuation
/// and park no thread at all: Swift's cooperative pool and Dispatch's global queues (which on
/// Linux run that pool) have a few threads for every request, so a body arriving slowly must
/// never hold one of them.
final class ChunkQueue: @unchecked Sendable {  // every field is guarded by `condition`
    private let condition = NSCondition()
    private let capacity: Int
    private var chunks: [[UInt8]] = []
    private var ended = false
    private var cancelled = false
    private var failureStorage: (any Error)?
    /// The task waiting for room, with the chunk it brings.
    private var waitingPut: (chunk: [UInt8], continuation: CheckedContinuation<Bool, Never>)?
    /// The task waiting for a chunk.
    private var waitingTake: CheckedContinuation<[UInt8]?, any Error>?

    init(capacity: Int = 4) { self.capacity = capacity }

    /// Why the producer stopped early, if it did.
    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return failureStorage
    }

    // MARK: The blocking side (a dedicated thread only)

    /// Appends `chunk`, waiting while the queue is full; `false` once the consumer cancelled.
    func put(_ chunk: [UInt8]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        append(chunk)
        return true
    }

    /// The next chunk, waiting while the queue is empty; `nil` at the end.
    ///
    /// - Throws: the error the producer finished with, once the chunks before it are taken.
    func take() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !ended && !cancelled { condition.wait() }
        if let chunk = removeFirst() { return chunk }
        if let failureStorage, !cancelled { throw failureStorage }
        return nil
    }

    // MARK: The async side (any task)

    /// ``put(_:)`` suspending the task, not its thread, while the queue is full; `false` once
    /// the consumer cancelled or the task was cancelled.
    func put(_ chunk: [UInt8]) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                condition.lock()
                defer { condition.unlock() }
                if cancelled || Task.isCancelled {
                    continuation.resume(returning: false)
                } else if chunks.count < capacity {
                    append(chunk)
                    continuation.resume(returning: true)
                } else {
                    waitingPut = (chunk, continuation)
                }
            }
        } onCancel: {
            condition.lock()
            defer { condition.unlock() }
            waitingPut?.continuation.resume(returning: false)
            waitingPut = nil
        }
    }

    /// ``take()`` suspending the task, not its thread, while the queue is empty.
    ///
    /// - Throws: the producer's error as ``take()`` does; `CancellationError` when the task is
    ///   cancelled, so that a cut answer is never mistaken for a complete one.
    func take() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                condition.lock()
                defer { condition.unlock() }
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else if let chunk = removeFirst() {
                    continuation.resume(returning: chunk)
                } else if ended || cancelled {
                    resumeAtEnd(continuation)
                } else {
                    waitingTake = continuation
                }
            }
        } onCancel: {
            condition.lock()
            defer { condition.unlock() }
            waitingTake?.resume(throwing: CancellationError())
            waitingTake = nil
        }
    }

    // MARK: Either side

    /// Marks the end of the chunks; with `error`, the consumer's next take throws it.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        if failureStorage == nil { failureStorage = error }
        if let waiting = waitingTake {
            waitingTake = nil
            resumeAtEnd(waiting)
        }
        condition.broadcast()
    }

    /// The consumer gives up: waiting and later puts return `false`, takes return `nil`.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        chunks.removeAll()
        waitingPut?.continuation.resume(returning: false)
        waitingPut = nil
        waitingTake?.resume(throwing: CancellationError())
        waitingTake = nil
        condition.broadcast()
    }

    // MARK: Under the lock

    private func append(_ chunk: [UInt8]) {
        if let waiting = waitingTake {
            waitingTake = nil
            waiting.resume(returning: chunk)
        } else {
            chunks.append(chunk)
        }
        condition.broadcast()
    }

    /// The first chunk, letting a waiting put's chunk take its place.
    private func removeFirst() -> [UInt8]? {
        guard !chunks.isEmpty else { return nil }
        let chunk = chunks.removeFirst()
        if let waiting = waitingPut {
            waitingPut = nil
            chunks.append(waiting.chunk)
            waiting.continuation.resume(returning: true)
        }
        condition.broadcast()
        return chunk
    }

    private func resumeAtEnd(_ continuation: CheckedContinuation<[UInt8]?, any Error>) {
        if let failureStorage, !cancelled {
            continuation.resume(throwing: failureStorage)
        } else {
            continuation.resume(returning: nil)
        }
    }
}

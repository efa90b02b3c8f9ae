import Dispatch
import Foundation

/// A bounded queue of byte chunks between async code (a request or response body) and a
/// thread that blocks (the batch pipeline's reader or writer), so that a body streams through
/// at most `capacity` chunks of memory in each direction.
///
/// The blocking calls wait on a condition; the async ones run them on a Dispatch thread, so
/// that no thread of Swift's cooperative pool ever waits.
final class ChunkQueue: @unchecked Sendable {  // every field is guarded by `condition`
    private let condition = NSCondition()
    private let capacity: Int
    private var chunks: [[UInt8]] = []
    private var ended = false
    private var cancelled = false
    private var failureStorage: (any Error)?

    init(capacity: Int = 4) { self.capacity = capacity }

    /// Why the producer stopped early, if it did.
    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return failureStorage
    }

    /// Appends `chunk`, waiting while the queue is full; `false` once the consumer cancelled.
    func put(_ chunk: [UInt8]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        chunks.append(chunk)
        condition.broadcast()
        return true
    }

    /// Marks the end of the chunks; with `error`, the consumer's next take throws it.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        if failureStorage == nil { failureStorage = error }
        condition.broadcast()
    }

    /// The consumer gives up: waiting and later puts return `false`, takes return `nil`.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
    }

    /// The next chunk, waiting while the queue is empty; `nil` at the end.
    ///
    /// - Throws: the error the producer finished with, once the chunks before it are taken.
    func take() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !ended && !cancelled { condition.wait() }
        if !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            condition.broadcast()
            return chunk
        }
        if let failureStorage, !cancelled { throw failureStorage }
        return nil
    }

    /// ``put(_:)`` without blocking the caller's thread.
    func put(_ chunk: [UInt8]) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.put(chunk)) }
        }
    }

    /// ``take()`` without blocking the caller's thread.
    func take() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try self.take() }) }
        }
    }
}

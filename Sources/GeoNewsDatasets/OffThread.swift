import Foundation

/// Work that blocks for long (reading a large file, building a cluster index, `fsync`) runs
/// on a thread of its own: Swift's cooperative pool has one thread per core, and the request
/// handlers of every connection share it, so a build there would stall every other request.
package enum OffThread {
    /// `work`'s result, computed on a new thread while the caller's task is suspended.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}

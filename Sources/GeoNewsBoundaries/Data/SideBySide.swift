#if canImport(Glibc)
import GeoNewsData
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `first` on the calling thread and `second` on a thread of its own, side by side, and
/// returns when both are done; throws `first`'s error, else `second`'s. When no thread can be
/// started, runs `second` after `first`. The two must share no mutable state.
package func sideBySide(
    _ first: () throws(DataError) -> Void, _ second: () throws(DataError) -> Void
) throws(DataError) {
    try withoutActuallyEscaping(second) { (second) throws(DataError) in
        let job = SideJob(second)
        let retained = Unmanaged.passRetained(job)
        var thread = pthread_t()
        guard pthread_create(&thread, nil, runSideJob, retained.toOpaque()) == 0 else {
            retained.release()
            try first()
            try second()
            return
        }
        let firstResult = Result { () throws(DataError) in try first() }
        pthread_join(thread, nil)
        try firstResult.get()
        try job.result?.get()
    }
}

/// The work a ``sideBySide(_:_:)`` thread runs, and what it threw; read only after the join.
private final class SideJob {
    let work: () throws(DataError) -> Void
    var result: Result<Void, DataError>?

    init(_ work: @escaping () throws(DataError) -> Void) { self.work = work }
}

private func runSideJob(_ job: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let job = Unmanaged<SideJob>.fromOpaque(job!).takeRetainedValue()
    job.result = Result { () throws(DataError) in try job.work() }
    return nil
}

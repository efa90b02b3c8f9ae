import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lookup table built on a thread of its own, so that a batch does not wait for it: until it
/// is published, lookups take the slower way that gives the same answers (a table changes only
/// the cost).
public final class TableBuild<Table: Sendable>: Sendable {
    /// The finished table's storage, 0 until then; published once, with release ordering,
    /// after every byte of it is written.
    private let storage = Atomic<Int>(0)
    /// Keeps the finished table, and so its storage, alive as long as this.
    private let table = Mutex<Table?>(nil)

    private init() {}

    /// Starts `make` on a new thread; `storage` tells where the table it returns keeps the
    /// bytes that ``finished`` hands out (memory that lives as long as the table).
    static func start(
        _ make: @escaping @Sendable () -> Table, storage: @escaping @Sendable (Table) -> UnsafeRawPointer
    ) -> TableBuild {
        let build = TableBuild()
        let job = Unmanaged.passRetained(
            TableJob {
                let t = make()
                build.table.withLock { $0 = t }
                build.storage.store(Int(bitPattern: storage(t)), ordering: .releasing)
            }
        ).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, runTableJob, job) == 0 {
            pthread_detach(thread)
        } else {
            _ = runTableJob(job)  // no thread to spare: build it here
        }
        return build
    }

    /// The table once it is built, for tests and callers that can wait.
    public func waitForTable() -> Table {
        while true {
            if let t = table.withLock({ $0 }) { return t }
            usleep(1000)
        }
    }

    /// The finished table's storage, or `nil` while it is being built.
    @inline(__always)
    var finished: UnsafeRawPointer? {
        UnsafeRawPointer(bitPattern: storage.load(ordering: .acquiring))
    }
}

/// A new thread's work, passed to it as one retained object.
private final class TableJob {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

private func runTableJob(_ job: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<TableJob>.fromOpaque(job!).takeRetainedValue().run()
    return nil
}

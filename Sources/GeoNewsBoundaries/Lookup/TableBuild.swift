import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lookup table built on a thread of its own, started by the first look at ``finished`` (or
/// ``waitForTable()``): until the table is published, lookups take the slower way that gives
/// the same answers (a table changes only the cost), so that nothing waits for it, and a
/// process that never needs it never spends its build.
public final class TableBuild<Table: Sendable>: Sendable {
    /// The finished table's storage, 0 until then; published once, with release ordering,
    /// after every byte of it (and ``storageBytes``) is written.
    private let storage = Atomic<Int>(0)
    /// The storage's size in bytes, written before ``storage``.
    private let storageBytes = Atomic<Int>(0)
    /// Keeps the finished table, and so its storage, alive as long as this.
    private let table = Mutex<Table?>(nil)
    /// Set by the one caller that starts the build.
    private let started = Atomic<Bool>(false)
    private let make: @Sendable () -> Table
    private let storageOf: @Sendable (Table) -> UnsafeRawBufferPointer

    /// A build of `make`'s table, not started yet; `storage` tells where the table keeps the
    /// bytes that ``finished`` hands out (memory that lives as long as the table).
    init(_ make: @escaping @Sendable () -> Table, storage: @escaping @Sendable (Table) -> UnsafeRawBufferPointer) {
        self.make = make
        self.storageOf = storage
    }

    /// Starts the build unless it has started.
    @inline(never)
    private func startIfIdle() {
        guard !started.load(ordering: .relaxed),
            started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let job = Unmanaged.passRetained(
            TableJob { [self] in
                let t = make()
                table.withLock { $0 = t }
                let bytes = storageOf(t)
                storageBytes.store(bytes.count, ordering: .relaxed)
                storage.store(Int(bitPattern: bytes.baseAddress), ordering: .releasing)
            }
        ).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, runTableJob, job) == 0 {
            pthread_detach(thread)
        } else {
            _ = runTableJob(job)  // no thread to spare: build it here
        }
    }

    /// The table once it is built and published, for tests and callers that can wait: from its
    /// return, ``builtTable`` and the lookups have it too. (The build keeps the table before it
    /// publishes the storage; returning at the first, a caller could still find ``builtTable``
    /// `nil`, as a loaded machine once showed.)
    public func waitForTable() -> Table {
        startIfIdle()
        while true {
            if let t = builtTable { return t }
            usleep(1000)
        }
    }

    /// The table if it is built, `nil` while it is being built; never waits.
    public var builtTable: Table? {
        finished == nil ? nil : table.withLock { $0 }
    }

    /// Whether the build has started (at once, or at a first use).
    public var hasStarted: Bool { started.load(ordering: .relaxed) }

    /// The finished table's storage, or `nil` while it is being built: a buffer, so that a
    /// read outside it traps in a debug build.
    @inline(__always)
    var finished: UnsafeRawBufferPointer? {
        if let built = UnsafeRawPointer(bitPattern: storage.load(ordering: .acquiring)) {
            return UnsafeRawBufferPointer(start: built, count: storageBytes.load(ordering: .relaxed))
        }
        startIfIdle()
        return nil
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

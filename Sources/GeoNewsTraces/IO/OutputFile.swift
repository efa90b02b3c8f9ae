import CMemoryHints

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a run writes its output to, created or emptied, in ways that keep its start and its
/// end from stalling the run.
///
/// Emptying a large file that exists (the output of the run before) costs the kernel tens of
/// milliseconds, more while its pages are still being written: here it happens on a thread of
/// its own while the first chunks are read and resolved, and what is written meanwhile is held
/// (up to ``heldLimit`` bytes, then the writer waits). And on ext4, closing a file that was
/// emptied hands all its dirty pages to the disk at once; here every ``writeBehindBytes``
/// written are handed over as the run goes, on the writing thread, so the close has little
/// left to do. Neither waits for the disk: as with `write(2)`, the data is durable only when
/// the system flushes it.
final class OutputFile {
    let path: String
    private let fd: Int32
    private let isRegular: Bool
    /// The emptying in flight; `nil` once it is done and its outcome seen.
    private var emptying: Emptying?
    /// Bytes written before the emptying ended, in order.
    private var held: [UInt8] = []
    /// Bytes written to the file, and how many of them were handed to the disk.
    private var written = 0
    private var handedToDisk = 0
    private var isClosed = false

    /// Written bytes held at most while the file is being emptied.
    static let heldLimit = 8 << 20
    /// How many bytes are written between two hand-overs to the disk.
    static let writeBehindBytes = 8 << 20

    /// Opens or creates `path` for writing (mode 0644) and starts emptying it.
    init(path: String) throws(BatchResolveError) {
        self.path = path
        let opened = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        fd = opened
        var status = stat()
        isRegular = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        // A FIFO or a device is not emptied (as O_TRUNC leaves them), nor is an empty file.
        if isRegular && status.st_size > 0 { emptying = Emptying(fd: fd) }
    }

    /// Throws ``BatchResolveError/usage(_:)`` when `path` is already one of `inputs` (by
    /// device and inode, so through any link or spelling): emptying it would lose the input
    /// before it is read.
    static func refuseToOverwrite(_ inputs: [BatchInput], with path: String) throws(BatchResolveError) {
        var output = stat()
        guard stat(path, &output) == 0 else { return }
        for input in inputs {
            var status = stat()
            let found: Bool
            switch input {
            case .file(let p): found = stat(p, &status) == 0
            case .standardInput: found = fstat(0, &status) == 0
            case .bytes: found = false
            }
            if found && status.st_dev == output.st_dev && status.st_ino == output.st_ino {
                throw .usage(
                    "the output \(path) is the input \(input.name): writing it would destroy the input; choose another output file")
            }
        }
    }

    deinit {
        // The emptying thread uses the descriptor: it must be done before the number is freed.
        _ = emptying?.outcome()
        if !isClosed { close(fd) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(BatchResolveError) {
        if let emptying {
            if !emptying.isDone && held.count + bytes.count <= Self.heldLimit {
                held.append(contentsOf: bytes)
                return
            }
            try finishEmptying()
        }
        try writeAll(bytes)
    }

    /// Writes what is held and closes the file, reporting a failure the kernel only tells at
    /// close (a full disk on NFS).
    func finish() throws(BatchResolveError) {
        try finishEmptying()
        isClosed = true
        if close(fd) != 0 { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Waits for the emptying, then writes what was held meanwhile.
    private func finishEmptying() throws(BatchResolveError) {
        guard let emptying else { return }
        self.emptying = nil
        let failure = emptying.outcome()
        guard failure == 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(failure))) }
        let bytes = held
        held = []
        var thrown: BatchResolveError?
        bytes.withUnsafeBytes { raw in
            do throws(BatchResolveError) { try writeAll(raw) } catch { thrown = error }
        }
        if let thrown { throw thrown }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(BatchResolveError) {
        try writeFully(fd, bytes, name: path)
        written += bytes.count
        if isRegular && written - handedToDisk >= Self.writeBehindBytes {
            // A hint: a file system that does not take it loses nothing.
            _ = geonews_write_behind(fd, Int64(handedToDisk), Int64(written - handedToDisk))
            handedToDisk = written
        }
    }
}

/// `ftruncate(fd, 0)` on a thread of its own, and its outcome.
private final class Emptying: @unchecked Sendable {
    // Sendable: `done` and `failure` are read and written under `condition` only.
    private let condition = PipelineCondition()
    private var done = false
    private var failure: Int32 = 0

    init(fd: Int32) {
        startPipelineThread { [self] in
            let status = ftruncate(fd, 0) == 0 ? 0 : errno
            condition.lock()
            failure = status
            done = true
            condition.broadcast()
            condition.unlock()
        }
    }

    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return done
    }

    /// Waits for the emptying to end: 0, or the errno it failed with.
    func outcome() -> Int32 {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return failure
    }
}

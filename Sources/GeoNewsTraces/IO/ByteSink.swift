#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where resolved records go.
public enum BatchOutput: Sendable {
    /// Standard output.
    case standardOutput
    /// A file by path, created or truncated.
    case file(String)
    /// Bytes collected in memory (tests, embedding).
    case memory(CollectedBytes)
    /// Each block of output handed to a function as it is produced (an HTTP response being
    /// streamed), on the thread that called the run. An error it throws ends the run with
    /// ``BatchResolveError/writeFailed(path:reason:)``.
    case writer(@Sendable ([UInt8]) throws -> Void)
}

/// Output gathered in memory by ``BatchOutput/memory(_:)``.
public final class CollectedBytes: @unchecked Sendable {
    private var storage: [UInt8] = []

    public init() {}

    /// Everything written so far. Read it after the run has returned.
    public var bytes: [UInt8] { storage }
    /// ``bytes`` as UTF-8 text.
    public var text: String { String(decoding: storage, as: UTF8.self) }

    func append(_ bytes: UnsafeRawBufferPointer) { storage.append(contentsOf: bytes) }
}

/// An open output written whole buffers at a time: standard output with `write(2)`, a file
/// through ``OutputFile``, memory, or a function.
final class ByteSink {
    let name: String
    private let fd: Int32
    private let memory: CollectedBytes?
    private var writer: (@Sendable ([UInt8]) throws -> Void)?
    private var file: OutputFile?

    init(_ output: BatchOutput) throws(BatchResolveError) {
        switch output {
        case .standardOutput:
            name = "standard output"
            fd = 1
            memory = nil
        case .file(let path):
            name = path
            fd = -1
            memory = nil
            file = try OutputFile(path: path)
        case .memory(let collected):
            name = "memory"
            fd = -1
            memory = collected
        case .writer(let write):
            name = "the response"
            fd = -1
            memory = nil
            writer = write
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(BatchResolveError) {
        if let file { return try file.write(bytes) }
        if let memory { return memory.append(bytes) }
        if let writer {
            do { return try writer(Array(bytes)) } catch { throw .writeFailed(path: name, reason: "\(error)") }
        }
        try writeFully(fd, bytes, name: name)
    }

    func write(_ text: String) throws(BatchResolveError) {
        let bytes = Array(text.utf8)
        var failure: BatchResolveError?
        bytes.withUnsafeBytes { raw in
            do throws(BatchResolveError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Closes the file, reporting a failure the kernel only tells at close (full disk on NFS).
    func finish() throws(BatchResolveError) {
        guard let file else { return }
        self.file = nil
        try file.finish()
    }
}

/// Writes all of `bytes` to `fd` with `write(2)`, again after an interruption or a short write;
/// a failure names `name` and the system's reason.
func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, name: String) throws(BatchResolveError) {
    var offset = 0
    while offset < bytes.count {
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            throw .writeFailed(path: name, reason: String(cString: strerror(errno)))
        }
        offset += n
    }
}

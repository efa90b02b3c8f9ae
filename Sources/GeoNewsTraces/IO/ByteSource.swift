#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where records come from.
public enum BatchInput: Sendable, Hashable {
    /// Standard input (`-` on the command line, or no file at all).
    case standardInput
    /// A file by path.
    case file(String)
    /// Bytes already in memory, with a name for messages.
    case bytes([UInt8], name: String)

    /// The name used in messages and for choosing a format by extension.
    public var name: String {
        switch self {
        case .standardInput: return "-"
        case .file(let path): return path
        case .bytes(_, let name): return name
        }
    }
}

/// An open input read in large blocks through `read(2)`: never slurped.
package final class ByteSource {
    package let name: String
    /// Total bytes when known (a regular file), for progress and ETA.
    package let size: Int?
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var memory: [UInt8]?
    private var memoryOffset = 0
    /// The next chunk of a chunked input (an upload body), `nil` at its end.
    private var nextChunk: (() throws -> [UInt8]?)?
    private var pushedBack: [UInt8] = []

    package init(_ input: BatchInput) throws(BatchResolveError) {
        name = input.name
        switch input {
        case .standardInput:
            fd = 0
            ownsDescriptor = false
            size = Self.regularFileSize(0)
        case .file(let path):
            let opened = open(path, O_RDONLY)
            guard opened >= 0 else { throw .inputUnreadable(path: path, reason: String(cString: strerror(errno))) }
            var info = stat()
            if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw .inputUnreadable(path: path, reason: "it is a directory")
            }
            fd = opened
            ownsDescriptor = true
            size = Self.regularFileSize(opened)
        case .bytes(let bytes, _):
            fd = -1
            ownsDescriptor = false
            memory = bytes
            size = bytes.count
        }
    }

    /// An input that arrives in chunks, such as an HTTP request body: `nextChunk` is called
    /// whenever the bytes handed out so far are used up, and returns `nil` at the end. Only the
    /// current chunk is held.
    package init(name: String, nextChunk: @escaping () throws -> [UInt8]?) {
        self.name = name
        size = nil
        fd = -1
        ownsDescriptor = false
        memory = []
        self.nextChunk = nextChunk
    }

    deinit { if ownsDescriptor { close(fd) } }

    private static func regularFileSize(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The first `count` bytes (fewer at the end of the input), which later reads return again.
    package func peek(_ count: Int) throws(BatchResolveError) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            var failure: BatchResolveError?
            let n = head.withUnsafeMutableBytes { raw -> Int in
                do throws(BatchResolveError) { return try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...])) } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            if n == 0 { break }
            filled += n
        }
        head.removeSubrange(filled...)
        pushedBack = head + pushedBack
        return head
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(BatchResolveError) -> Int {
        if !pushedBack.isEmpty {
            let n = min(buffer.count, pushedBack.count)
            pushedBack.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
            pushedBack.removeFirst(n)
            return n
        }
        if memory != nil {
            while memoryOffset == memory!.count, let next = nextChunk {
                let chunk: [UInt8]?
                do { chunk = try next() } catch { throw .readFailed(path: name, reason: "\(error)") }
                guard let chunk else { nextChunk = nil; break }
                memory = chunk
                memoryOffset = 0
            }
            let n = min(buffer.count, memory!.count - memoryOffset)
            guard n > 0 else { return 0 }
            memory!.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + memoryOffset, byteCount: n) }
            memoryOffset += n
            return n
        }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw .readFailed(path: name, reason: String(cString: strerror(errno)))
        }
    }
}

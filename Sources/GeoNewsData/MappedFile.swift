#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory map of a whole file. The bytes are shared, never copied or parsed, so
/// loading costs a system call and the pages come in on first touch.
public final class MappedFile: @unchecked Sendable {
    // Sendable: the mapping is PROT_READ and never changes until deinit.
    public let path: String
    public let bytes: UnsafeRawBufferPointer

    /// How the mapping's pages will be read, told to the kernel when it is made.
    public enum Access: Sendable {
        /// As the kernel sees fit: a fault reads ahead, for a file read through or scanned.
        case normal
        /// A few scattered pages per lookup (an index): a fault reads its own page and none
        /// ahead (`MADV_RANDOM`). Read ahead, the kernel would bring whole runs of pages into
        /// the page cache, and a later fault maps every cached page around it (64 KB, or the
        /// whole large folio on Linux 6.18): with both indexes cached whole, a batch of uniform
        /// positions held 147 MB of them resident, where the pages it reads come to 87 MB (see
        /// ``PageCache``).
        case random
    }

    public init(path: String, access: Access = .normal) throws(DataError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let size = Int(st.st_size)
        guard size > 0 else { throw .corrupt(path: path, reason: "the file is empty") }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
        // Advice only: a kernel that ignores it reads ahead as before.
        if access == .random { advise(.random) }
    }

    /// Tells the kernel how the mapping's pages will be read from now on (see ``Access``): a
    /// scan of a whole index reads ahead, its lookups after it do not.
    public func advise(_ access: Access) {
        let advice = access == .random ? MADV_RANDOM : MADV_NORMAL
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, Int32(advice))
    }

    /// Drops the pages a scan of the whole file brought into this process's resident set: they
    /// stay in the page cache and come back, without reading the disk, when touched again.
    public func releaseResidentPages() {
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, Int32(MADV_DONTNEED))
    }

    /// ``releaseResidentPages()`` for the whole pages inside `window`, a part of ``bytes``.
    public func releaseResidentPages(in window: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, let start = window.baseAddress, window.count > 0 else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let from = (start - base + page - 1) / page * page, to = (start - base + window.count) / page * page
        guard from < to else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + from), to - from, Int32(MADV_DONTNEED))
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }

    /// A little-endian integer at `offset`; throws on a short file instead of reading past it.
    package func integer<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) throws(DataError) -> T {
        guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else {
            throw .corrupt(path: path, reason: "truncated at byte \(offset)")
        }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}

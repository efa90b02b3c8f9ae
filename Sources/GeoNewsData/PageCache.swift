#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the kernel keeps of the index files in its page cache after GeoNews writes or checks
/// them. A batch or a server reads a scattered part of each index (see
/// ``MappedFile/Access/random``); a cached page near one it reads is mapped into its resident
/// set too. So an install leaves none of what it wrote in the cache, and a check of a whole
/// file leaves the cache as it found it: the cache then holds the pages lookups read.
///
/// Advice only, as the kernel takes it: where it cannot drop a page (tmpfs, a page another
/// process maps), the page stays.
public enum PageCache {
    /// Drops the cached pages of the open file `descriptor` from `offset` for `length` bytes
    /// (0: to its end). Only clean pages go: call it after `fsync`.
    public static func drop(descriptor: Int32, offset: Int = 0, length: Int = 0) {
        #if os(Linux)
        _ = posix_fadvise(descriptor, off_t(offset), off_t(length), POSIX_FADV_DONTNEED)
        #endif
    }

    /// Runs `scan` over `file`'s bytes, then drops from the page cache the pages of the file
    /// that were not cached before it: a check that reads a whole index leaves the cache as it
    /// found it. Pages cached before, by another process or an earlier run, stay. The scan's
    /// pages leave this process's resident set first (a mapped page is not dropped).
    public static func leavingAsFound<T>(_ file: MappedFile, _ scan: (UnsafeRawBufferPointer) -> T) -> T {
        let before = residency(of: file)
        let result = scan(file.bytes)
        file.releaseResidentPages()
        guard let before else { return result }
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return result }
        defer { close(fd) }
        let page = pageSize
        var first = 0
        while first < before.count {
            guard !before[first] else {
                first += 1
                continue
            }
            var end = first + 1
            while end < before.count && !before[end] { end += 1 }
            drop(descriptor: fd, offset: first * page, length: (end - first) * page)
            first = end
        }
        return result
    }

    /// Per page of `file`'s mapping, whether the page cache holds it (`mincore`); `nil` where
    /// the system cannot tell.
    public static func residency(of file: MappedFile) -> [Bool]? {
        #if os(Linux)
        guard let base = file.bytes.baseAddress, file.bytes.count > 0 else { return [] }
        let pages = (file.bytes.count + pageSize - 1) / pageSize
        var vector = [UInt8](repeating: 0, count: pages)
        let status = vector.withUnsafeMutableBufferPointer {
            mincore(UnsafeMutableRawPointer(mutating: base), file.bytes.count, $0.baseAddress!)
        }
        return status == 0 ? vector.map { $0 & 1 != 0 } : nil
        #else
        return nil
        #endif
    }

    static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }
}

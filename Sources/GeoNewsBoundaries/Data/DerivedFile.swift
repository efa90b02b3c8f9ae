#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files the data's indexes are derived into on first use (`places.bin`,
/// `region-edges.bin`), beside the area index.
enum DerivedFile {
    /// Writes `bytes` to `path` through a temporary file beside it and a rename; `false` when the
    /// folder cannot be written (the caller keeps the index in memory).
    static func store(_ bytes: [UInt8], at path: String) -> Bool {
        var template = Array((path + ".partial-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return false }
        let partial = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = 0
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            while done < raw.count {
                let w = write(fd, raw.baseAddress! + done, raw.count - done)
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { return false }
                done += w
            }
            return true
        }
        fchmod(fd, 0o644)
        let closed = close(fd) == 0
        guard ok, closed, rename(partial, path) == 0 else {
            unlink(partial)
            return false
        }
        return true
    }
}

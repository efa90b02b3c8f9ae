import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#endif

/// The access log (`--access-log FILE`): one line per request in nginx's `combined` format
/// with the answer's time in seconds at the end,
///
///     203.0.113.7 - - [29/Nov/2026:02:30:00 +0000] "GET /v1/resolve?lat=48.8&lon=2.3 HTTP/1.1" 200 412 "-" "curl/8.1" 0.000231
///
/// naming the client as ``TrustedProxies`` does: behind a trusted proxy, the forwarded address.
///
/// A request never waits on the disk: its line is appended to a buffer in memory under a lock,
/// and one thread of the log's own (not one of a shared pool) writes the buffer out at least
/// every ``flushInterval``. When the disk cannot keep up and the buffer holds ``mostBufferedBytes``,
/// further lines are dropped and counted (``dropped``), so that memory stays bounded. `SIGHUP`
/// (``reopen()``) makes the thread open the path again, for logrotate.
///
/// Values from the request (the target, `Referer`, `User-Agent`) are written with `"`, `\`,
/// control and non-ASCII bytes as `\xHH`, and cut to ``longestField`` bytes, so that a request
/// cannot forge a line or make one unbounded.
public final class AccessLog: Sendable {
    /// The file's path, opened again on ``reopen()``.
    public let path: String
    /// The most bytes waiting to be written; past them lines are dropped.
    static let mostBufferedBytes = 4 << 20
    /// The longest request value kept in a line, in bytes (before escaping).
    static let longestField = 2_048
    /// How long a line may wait in the buffer.
    static let flushInterval: TimeInterval = 0.2

    private struct Buffer {
        var bytes: [UInt8] = []
        var dropped = 0
        var reopen = false
        var closing = false
        var closed = false
        var second = 0
        var stamp: [UInt8] = []
    }

    private let buffer = NIOLockedValueBox(Buffer())
    private let wake = NSCondition()
    /// The open descriptor; read and replaced only by the writer thread (and `close()` after it).
    private let descriptor = NIOLockedValueBox<Int32>(-1)

    /// Opens (creating, mode 0640) `path` for appending and starts the writer thread.
    /// - Throws: ``AccessLogError`` naming the path and the system's reason.
    public init(path: String) throws(AccessLogError) {
        self.path = path
        let fd = Self.open(path)
        guard fd >= 0 else { throw AccessLogError(path: path, reason: String(cString: strerror(errno))) }
        descriptor.withLockedValue { $0 = fd }
        let thread = Thread { [self] in self.run() }
        thread.name = "geonews access log"
        thread.start()
    }

    private static func open(_ path: String) -> Int32 {
        Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
    }

    /// Lines dropped because the buffer was full.
    public var dropped: Int { buffer.withLockedValue { $0.dropped } }

    /// Records one request. `seconds` is from the request's head to its answer's head.
    func record(
        client: String, method: String, target: String, status: Int, bytes: Int?, referer: String?, userAgent: String?,
        seconds: Double
    ) {
        var line: [UInt8] = []
        line.reserveCapacity(160 + target.utf8.count)
        Self.appendEscaped(client, to: &line)
        line += Array(" - - [".utf8)
        let stampAt = line.count
        line += Array("] \"".utf8)
        Self.appendEscaped(method, to: &line)
        line.append(0x20)
        Self.appendEscaped(target, to: &line)
        line += Array(" HTTP/1.1\" \(status) \(bytes.map(String.init) ?? "-") \"".utf8)
        Self.appendEscaped(referer ?? "-", to: &line)
        line += Array("\" \"".utf8)
        Self.appendEscaped(userAgent ?? "-", to: &line)
        line += Array("\" \(Self.seconds(seconds))\n".utf8)
        let full = buffer.withLockedValue { buffer -> Bool in
            guard !buffer.closed else { return false }
            guard buffer.bytes.count + line.count + 32 <= Self.mostBufferedBytes else {
                buffer.dropped += 1
                return false
            }
            let now = time(nil)
            if now != buffer.second || buffer.stamp.isEmpty {
                buffer.second = now
                buffer.stamp = Self.stamp(now)
            }
            line.insert(contentsOf: buffer.stamp, at: stampAt)
            buffer.bytes += line
            return buffer.bytes.count >= 64 << 10
        }
        if full { wakeWriter() }
    }

    /// Makes the writer open the path again (after logrotate moved the file).
    public func reopen() {
        buffer.withLockedValue { $0.reopen = true }
        wakeWriter()
    }

    /// Wakes the writer before its interval ends (it wakes every interval anyway).
    private func wakeWriter() {
        wake.signal()
    }

    /// Writes what is buffered, stops the thread and closes the file; later lines are ignored.
    /// Returns once the writer has done so, or after 5 s (a disk that hangs).
    public func close() async {
        buffer.withLockedValue { $0.closing = true }
        wakeWriter()
        // The writer sets `closed` once it has written the rest, within one interval.
        for _ in 0..<500 where !buffer.withLockedValue({ $0.closed }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    private func run() {
        while true {
            wake.lock()
            _ = wake.wait(until: Date().addingTimeInterval(Self.flushInterval))
            wake.unlock()
            let (bytes, reopen, closing) = buffer.withLockedValue { buffer -> ([UInt8], Bool, Bool) in
                let taken = buffer.bytes
                buffer.bytes.removeAll(keepingCapacity: true)
                defer { buffer.reopen = false }
                return (taken, buffer.reopen, buffer.closing)
            }
            var fd = descriptor.withLockedValue { $0 }
            if reopen {
                let fresh = Self.open(path)
                // Kept on the old file when the path cannot be opened: nothing is lost.
                if fresh >= 0 {
                    _ = Glibc.close(fd)
                    fd = fresh
                    descriptor.withLockedValue { $0 = fresh }
                }
            }
            Self.writeAll(bytes, to: fd)
            if closing {
                _ = Glibc.close(fd)
                descriptor.withLockedValue { $0 = -1 }
                buffer.withLockedValue { $0.closed = true }
                return
            }
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return  // A full disk or a closed file: this batch is lost, the next may pass.
            }
        }
    }

    /// `29/Nov/2026:02:30:00 +0000`.
    static func stamp(_ t: Int) -> [UInt8] {
        var parts = tm()
        var seconds = t
        gmtime_r(&seconds, &parts)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return Array(
            "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
                .utf8)
    }

    /// Seconds with microseconds: `0.000231`.
    static func seconds(_ value: Double) -> String {
        let micros = value.isFinite ? Int64((min(max(value, 0), 1e9) * 1e6).rounded()) : 0
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `text`'s bytes, at most ``longestField`` of them, with `"`, `\`, controls and bytes past
    /// ASCII as `\xHH` (as nginx escapes its log variables).
    static func appendEscaped(_ text: String, to line: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8.prefix(longestField) {
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C {
                line += [0x5C, 0x78, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                line.append(byte)
            }
        }
    }
}

/// An access log path that cannot be opened for appending.
public struct AccessLogError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "the access log \(path) cannot be opened for appending: \(reason)" }
}

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Send times reserved per provider, kept in a file beside the cache so that separate processes
/// (one `geonews headlines` after another, several servers on one machine) space their requests
/// to a provider as one client would.
///
/// One small file per provider, `pace-<provider>`, mode 0600, holding the latest reserved send
/// times as Unix seconds, one a line. Each reservation reads and rewrites it under an exclusive
/// `flock`, so two processes cannot take the same slot. A ledger that cannot be opened or locked
/// reserves nothing: the in-process spacing still holds.
struct PaceLedger: Sendable {
    let directory: URL

    /// Reserves the first send time at or after `earliest` (Unix seconds) that keeps `limit`
    /// among the times other processes reserved, and returns it; `nil`, reserving nothing, when
    /// that time is after `latest`. Returns `earliest` when the ledger is unusable.
    func reserve(_ provider: NewsProvider, limit: RateLimit, earliest: Double, latest: Double, margin: Double) -> Double? {
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return locked(provider, creating: true, otherwise: earliest) { fd in
            reserve(in: fd, limit: limit, earliest: earliest, latest: latest, margin: margin)
        }
    }

    private func reserve(in fd: Int32, limit: RateLimit, earliest: Double, latest: Double, margin: Double) -> Double? {
        var times = Self.read(fd)
        var slot = earliest
        if times.count >= limit.requests {
            slot = max(slot, times[times.count - limit.requests] + limit.intervalSeconds * margin)
        }
        guard slot <= latest else { return nil }
        // Kept as the file writes it, so that ``release(_:slot:)`` finds the very line.
        slot = Self.stored(slot)
        times.append(slot)
        Self.write(times.suffix(limit.requests), to: fd)
        return slot
    }

    /// Removes `slot`, a time ``reserve(_:limit:earliest:latest:margin:)`` returned, when the
    /// ledger still holds it; leaves every other process's times as they are.
    func release(_ provider: NewsProvider, slot: Double) {
        locked(provider, creating: false, otherwise: ()) { fd in
            var times = Self.read(fd)
            guard let at = times.lastIndex(of: Self.stored(slot)) else { return }
            times.remove(at: at)
            Self.write(times[...], to: fd)
        }
    }

    /// `body`'s answer on the provider's file, opened and held under an exclusive `flock`;
    /// `fallback` when the file cannot be opened or locked (or, unless `creating`, does not exist).
    private func locked<T>(_ provider: NewsProvider, creating: Bool, otherwise fallback: T, _ body: (Int32) -> T) -> T {
        let path = directory.appendingPathComponent("pace-\(provider.rawValue)").path
        let fd = creating ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) : open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return fallback }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { return fallback }
        defer { flock(fd, LOCK_UN) }
        return body(fd)
    }

    /// A time as a line of the file holds it: Unix seconds to the millisecond.
    private static func stored(_ time: Double) -> Double { Double(String(format: "%.3f", time)) ?? time }

    private static func write(_ times: ArraySlice<Double>, to fd: Int32) {
        let text = times.map { String(format: "%.3f", $0) }.joined(separator: "\n") + (times.isEmpty ? "" : "\n")
        _ = ftruncate(fd, 0)
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    private static func read(_ fd: Int32) -> [Double] {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while true {
            let count = pread(fd, &buffer, buffer.count, offset)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.sorted()
    }
}

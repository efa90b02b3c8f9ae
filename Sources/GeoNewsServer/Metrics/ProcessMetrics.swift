import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process families Prometheus's own clients export (`process_cpu_seconds_total`,
/// `process_resident_memory_bytes`, …), read from Linux's `/proc` at each scrape and written
/// in the text format after the registry's families. Elsewhere there is no `/proc`, and
/// nothing is written.
enum ProcessMetrics {
    /// The families, each with `# HELP` and `# TYPE`; empty when `/proc/self/stat` is unreadable.
    static func text() -> String {
        guard let stat = read("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return "" }
        // Fields after the command name, which may hold spaces, start at field 3 (the state).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Double? { fields.count > number - 3 ? Double(fields[number - 3]) : nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageBytes = Double(sysconf(Int32(_SC_PAGESIZE)))
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ value: Double?) {
            guard let value, value.isFinite else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        if let user = field(14), let system = field(15), ticks > 0 {
            family("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", (user + system) / ticks)
        }
        family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", field(24).map { $0 * pageBytes })
        family("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", field(23))
        if let started = field(22), let boot = bootTime(), ticks > 0 {
            family("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", boot + started / ticks)
        }
        if let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            family("process_open_fds", "gauge", "Number of open file descriptors.", Double(fds.count))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            family("process_max_fds", "gauge", "Maximum number of open file descriptors.", Double(limit.rlim_cur))
        }
        return out
    }

    /// Seconds since the epoch at which the machine booted: `btime` of `/proc/stat`.
    private static func bootTime() -> Double? {
        guard let stat = read("/proc/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// A small `/proc` file's text (their size reads as 0, so it is read to the end).
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

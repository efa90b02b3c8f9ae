import GeoNewsCommandLine
import GeoNewsTraces

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress display on standard error: bytes done of the total, the rate and the
/// time left; records and their rate when the total is unknown. Redraws at most ten times a
/// second. Callers draw it only when standard error is a terminal.
final class ProgressMeter {
    private var lastDraw = -1.0
    private var drawn = false

    init() {}

    func update(_ p: BatchProgress) {
        guard p.seconds - lastDraw >= 0.1 else { return }
        lastDraw = p.seconds
        let rate = p.seconds > 0 ? Double(p.bytesDone) / p.seconds : 0
        let recordRate = p.seconds > 0 ? Double(p.records) / p.seconds : 0
        var line: String
        if let total = p.bytesTotal, total > 0 {
            let fraction = min(1, Double(p.bytesDone) / Double(total))
            let width = 24
            let filled = Int(fraction * Double(width))
            let eta = rate > 0 ? Double(total - p.bytesDone) / rate : 0
            line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            line += "\(Self.bytes(p.bytesDone)) / \(Self.bytes(total))  \(Self.bytes(Int(rate)))/s  "
            line += "\(Self.count(recordRate)) rec/s  ETA \(Self.duration(eta))"
        } else {
            line = "\(Self.count(Double(p.records))) records  \(Self.count(recordRate)) rec/s"
        }
        StandardError.write("\r" + line + "\u{1B}[K")
        drawn = true
    }

    /// Erases the line, before a summary or an error message.
    func clear() {
        if drawn { StandardError.write("\r\u{1B}[K") }
        drawn = false
    }

    static func bytes(_ n: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var v = Double(n)
        var u = 0
        while v >= 1000 && u < units.count - 1 { v /= 1000; u += 1 }
        return u == 0 ? "\(n) B" : "\((v * 10).rounded() / 10) \(units[u])"
    }

    static func count(_ n: Double) -> String {
        n >= 1e6 ? "\((n / 1e5).rounded() / 10) M" : n >= 1e3 ? "\((n / 100).rounded() / 10) k" : "\(Int(n))"
    }

    static func duration(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600
            ? "\(t / 3600):\(t / 60 % 60 < 10 ? "0" : "")\(t / 60 % 60):\(t % 60 < 10 ? "0" : "")\(t % 60)"
            : "\(t / 60):\(t % 60 < 10 ? "0" : "")\(t % 60)"
    }
}

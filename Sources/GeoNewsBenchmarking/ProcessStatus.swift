#if canImport(Glibc)
import Glibc
#endif

/// This process's memory as Linux reports it in `/proc/self/status`.
public enum ProcessStatus {
    /// A field of `/proc/self/status` in kilobytes (`VmRSS`, `VmHWM`, `RssFile`, `RssAnon`), or
    /// nil where there is no such file or field (off Linux).
    public static func kilobytes(_ field: String) -> Int? {
        #if canImport(Glibc)
        guard let f = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(f) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, f) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix(field + ":") else { continue }
            // "VmRSS:    123456 kB": the digits alone; Int(_:) gives nil rather than overflow.
            return Int(text.dropFirst(field.count + 1).filter(\.isNumber))
        }
        #endif
        return nil
    }

    /// Resident memory now (VmRSS), in megabytes of 1,048,576 bytes; 0 where it is unknown.
    public static func residentMB() -> Double { Double(kilobytes("VmRSS") ?? 0) / 1024 }

    /// The most memory this process has held resident (VmHWM), in whole megabytes, rounded down.
    public static func peakResidentMB() -> Int? { kilobytes("VmHWM").map { $0 / 1024 } }
}

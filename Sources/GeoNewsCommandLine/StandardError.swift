#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes text to standard error, unbuffered, so that a progress line or a message is on the
/// terminal before the command goes on (or exits).
public enum StandardError {
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { b in
            #if canImport(Glibc)
            _ = Glibc.write(2, b.baseAddress, b.count)
            #else
            _ = Darwin.write(2, b.baseAddress, b.count)
            #endif
        }
    }
}

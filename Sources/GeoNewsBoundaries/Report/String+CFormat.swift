#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// `printf`-style text for numbers (`%.1f`, `%8.3f`, `%d`), as Foundation's
    /// `String(format:)` gives for them, without linking all of Foundation: its ICU data and
    /// thousands of protocol conformances would otherwise be mapped and scanned by every start
    /// of `geonews`. The C locale's decimal point, whatever the environment says.
    ///
    /// Only numeric conversions: no `%@`, and every argument must match its conversion.
    package init(cFormat format: String, _ arguments: CVarArg...) {
        let size = withVaList(arguments) { Int(vsnprintf(nil, 0, format, $0)) }
        guard size > 0 else {
            self = ""
            return
        }
        var buffer = [CChar](repeating: 0, count: size + 1)
        _ = withVaList(arguments) { vsnprintf(&buffer, size + 1, format, $0) }
        self = String(decoding: buffer.prefix(size).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

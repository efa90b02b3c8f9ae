import GeoNewsTraces

extension BatchResolveError {
    /// The `sysexits.h` status `geonews resolve` exits with: 64 (EX_USAGE) for
    /// ``BatchResolveError/usage(_:)``, 66 (EX_NOINPUT) for an input that cannot be opened, 74
    /// (EX_IOERR) for read and write failures (docs/exit-codes.md).
    var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .inputUnreadable: return 66
        case .readFailed, .writeFailed: return 74
        }
    }
}

import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// The documented exit codes of `geonews` and `geonews-news` (sysexits.h values where one fits).
public enum ExitStatus: Int32, Sendable {
    /// Done.
    case ok = 0
    /// Bad usage or input: a value out of range, not a number, a missing flag.
    case usage = 64
    /// The data under Data/ is missing, stale or damaged.
    case dataError = 65
    /// An input file cannot be opened.
    case noInput = 66
    /// Resolved, but the headlines could not be fetched (offline, provider failure, bad key,
    /// or the `geonews-news` executable missing).
    case headlinesUnavailable = 69
    /// An output cannot be created: it exists and is never replaced, or its folder is missing
    /// (`geonews-serve backup`, `restore`).
    case cannotCreate = 73
    /// Writing the output failed.
    case ioError = 74
    /// A provider needs configuration that is missing (an API key).
    case configuration = 78

    /// A service cannot be offered (69, as for headlines): `geonews serve` cannot bind its
    /// address.
    public static var unavailable: ExitStatus { .headlinesUnavailable }

    public var code: ExitCode { ExitCode(rawValue) }
}

/// One line on standard error, prefixed with the command name users type (`geonews: `).
public func printError(_ message: String) {
    let line = "geonews: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

/// Prints `message` on standard error and leaves with `status`.
public func fail(_ message: String, _ status: ExitStatus) -> ExitCode {
    printError(message)
    return status.code
}

import GeoNewsCommandLine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// The `geonews-news` executable beside this one, which holds the headline commands.
///
/// `geonews` itself links no networking or XML library, so a resolution starts without loading
/// libcurl and its dependencies; headlines come from this sibling process instead.
enum NewsExecutable {
    /// What a finished `geonews-news` run left: its exit status and both output streams.
    struct Run: Sendable {
        let status: Int32
        let standardOutput: Data
        let standardError: String
    }

    /// Why `geonews-news` could not be started.
    enum LaunchError: Error, CustomStringConvertible {
        case missing(path: String)
        case notStarted(path: String, detail: String)

        var description: String {
            switch self {
            case .missing(let path):
                let name = path.split(separator: "/").last.map(String.init) ?? path
                return "\(path) is missing; build it with `swift build --product \(name)`"
            case .notStarted(let path, let detail): return "\(path) could not be started: \(detail)"
            }
        }
    }

    /// `geonews-news` in the directory of the running executable (`/proc/self/exe`, so a
    /// symbolic link to `geonews` still finds it beside the real file).
    static var path: String { path(of: "geonews-news") }

    /// The executable `name` beside the running one (`geonews-news`, `geonews-serve`).
    static func path(of name: String) -> String {
        let executable = runningExecutable() ?? CommandLine.arguments[0]
        guard let slash = executable.lastIndex(of: "/") else { return name }
        return executable[...slash] + name
    }

    /// The target of `/proc/self/exe`, the running executable's real path.
    private static func runningExecutable() -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { readlink("/proc/self/exe", $0, b.count - 1) }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Replaces this process with `<executable> <arguments>` (by default `geonews-news`), so
    /// its output and exit status are the command's own. Returns only on failure, with the
    /// reason.
    static func replaceProcess(arguments: [String], executable: String = "geonews-news") -> LaunchError {
        let path = path(of: executable)
        guard access(path, X_OK) == 0 else { return .missing(path: path) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let detail = String(cString: strerror(errno))
        for argument in argv { free(argument) }
        return .notStarted(path: path, detail: detail)
    }

    /// Runs `geonews-news <arguments>` to the end, collecting both output streams.
    static func run(arguments: [String]) async throws(LaunchError) -> Run {
        let path = path
        guard access(path, X_OK) == 0 else { throw .missing(path: path) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(path: path, arguments: arguments)
        } catch {
            throw .notStarted(path: path, detail: error.detail)
        }
        let (output, errors) = child.drain()
        return Run(status: child.wait(), standardOutput: Data(output), standardError: String(decoding: errors, as: UTF8.self))
    }
}

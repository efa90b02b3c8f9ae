import Foundation
import GeoNewsCommandLine

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
                return "\(path) is missing; build it with `swift build --product \(URL(fileURLWithPath: path).lastPathComponent)`"
            case .notStarted(let path, let detail): return "\(path) could not be started: \(detail)"
            }
        }
    }

    /// `geonews-news` in the directory of the running executable (`/proc/self/exe`, so a
    /// symbolic link to `geonews` still finds it beside the real file).
    static var path: String { path(of: "geonews-news") }

    /// The executable `name` beside the running one (`geonews-news`, `geonews-serve`).
    static func path(of name: String) -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name).path
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw .notStarted(path: path, detail: "\(error)")
        }
        // Both pipes are drained at once so that neither can fill and stall the child.
        let outputReader = output.fileHandleForReading
        let standardOutput = Task.detached { outputReader.readDataToEndOfFile() }
        let standardError = errors.fileHandleForReading.readDataToEndOfFile()
        let data = await standardOutput.value
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: data,
            standardError: String(decoding: standardError, as: UTF8.self))
    }
}

import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Runs the real `geonews` executable built beside the test bundle.
struct CommandRunner {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The build products folder: where the test executable itself lives.
    static var productsDirectory: URL {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        if dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        return dir
    }

    /// Runs `geonews ARGUMENTS` (or another of the package's executables, `executable`) to its
    /// end; `input`, when given, is its standard input.
    static func geonews(
        _ arguments: [String], environment extra: [String: String] = [:], input: Data? = nil, executable: String = "geonews"
    ) throws -> Output {
        let process = try prepared(arguments, environment: extra, executable: executable)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let feed = input.map { _ in Pipe() }
        if let feed { process.standardInput = feed }
        try process.run()
        if let feed, let input {
            // From another thread: the pipe holds 64 KB, and the command writes while it reads.
            // A command that stops reading early must not take the test process with it.
            signal(SIGPIPE, SIG_IGN)
            let writer = feed.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(input)
                try? writer.close()
            }
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// The `geonews` process (or `executable`'s) with the tests' environment, not yet started.
    static func prepared(
        _ arguments: [String], environment extra: [String: String] = [:], executable name: String = "geonews"
    ) throws
        -> Process
    {
        let executable = productsDirectory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw XCTSkip("\(name) is not built at \(executable.path); run `swift build` first")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["GEONEWS_DATA"] = packageRoot.appendingPathComponent("Data").path
        // Never the real internet from a test: an unroutable provider unless a test says otherwise.
        env["GEONEWS_GOOGLE_NEWS_URL"] = "http://127.0.0.1:9"
        env["GEONEWS_NEWSAPI_URL"] = "http://127.0.0.1:9"
        env["GEONEWS_GNEWS_URL"] = "http://127.0.0.1:9"
        env["GEONEWS_GDELT_URL"] = "http://127.0.0.1:9"
        env["NEWSAPI_KEY"] = nil
        env["GNEWS_API_KEY"] = nil
        env["GEONEWS_CONFIG"] = nil
        env["XDG_CONFIG_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("geonews-cli-config-\(UUID().uuidString)").path
        env["GEONEWS_CACHE_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-cli-\(UUID().uuidString)").path
        for (k, v) in extra { env[k] = v }
        process.environment = env
        return process
    }

    static func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}

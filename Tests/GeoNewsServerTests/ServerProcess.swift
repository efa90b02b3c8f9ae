import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A real `geonews-serve`, built beside the test bundle, listening on an ephemeral loopback
/// port with its own state directory.
final class ServerProcess: @unchecked Sendable {  // set up in init, then only read
    let process = Process()
    let stateDirectory: URL
    private(set) var baseURL: URL!
    private let errors = Pipe()

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var executable: URL {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        if dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        return dir.appendingPathComponent("geonews-serve")
    }

    static func newStateDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("geonews-serve-\(UUID().uuidString)")
    }

    /// Starts the server and waits for its "listening on" line.
    init(
        stateDirectory: URL = ServerProcess.newStateDirectory(), arguments: [String] = [],
        environment extra: [String: String] = [:]
    ) throws {
        self.stateDirectory = stateDirectory
        guard FileManager.default.isExecutableFile(atPath: Self.executable.path) else {
            throw XCTSkip("geonews-serve is not built at \(Self.executable.path); run `swift build --build-tests` first")
        }
        process.executableURL = Self.executable
        process.arguments = ["--port", "0", "--state-dir", stateDirectory.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env["GEONEWS_DATA"] = Self.packageRoot.appendingPathComponent("Data").path
        // Never the real internet from a test: an unroutable provider unless a test says otherwise.
        for name in ["GOOGLE_NEWS", "NEWSAPI", "GNEWS", "GDELT"] { env["GEONEWS_\(name)_URL"] = "http://127.0.0.1:9" }
        env["NEWSAPI_KEY"] = nil
        env["GNEWS_API_KEY"] = nil
        env["GEONEWS_CONFIG"] = nil
        env["XDG_CONFIG_HOME"] = stateDirectory.appendingPathComponent("config").path
        env["GEONEWS_CACHE_DIR"] = stateDirectory.appendingPathComponent("cache").path
        for (k, v) in extra { env[k] = v }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let line = Self.readLine(output.fileHandleForReading)
        guard let range = line.range(of: "listening on ") else {
            process.terminate()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ServerStartFailure(message: "geonews-serve did not start: \(line) \(stderr)")
        }
        baseURL = URL(string: String(line[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines))!
    }

    struct ServerStartFailure: Error, CustomStringConvertible { let message: String; var description: String { message } }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(handle.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    var port: Int { baseURL.port! }

    /// What `geonews ARGUMENTS` (built beside the server) prints on standard output; it must
    /// exit 0.
    static func runCLI(_ arguments: [String]) throws -> String {
        let cli = Process()
        cli.executableURL = executable.deletingLastPathComponent().appendingPathComponent("geonews")
        cli.arguments = arguments
        cli.environment = ["GEONEWS_DATA": packageRoot.appendingPathComponent("Data").path]
        let output = Pipe()
        cli.standardOutput = output
        try cli.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        cli.waitUntilExit()
        XCTAssertEqual(cli.terminationStatus, 0, "geonews \(arguments.joined(separator: " "))")
        return String(decoding: printed, as: UTF8.self)
    }

    /// Runs `geonews-serve ARGUMENTS` to its end (an option it refuses, `--version`): its exit
    /// status and what it printed on standard output and standard error, each a few lines.
    static func runOnce(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let serve = Process()
        serve.executableURL = executable
        serve.arguments = arguments
        let output = Pipe(), errors = Pipe()
        serve.standardOutput = output
        serve.standardError = errors
        try serve.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        serve.waitUntilExit()
        return (serve.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
    }

    /// Sends `signal` and waits for the process to end; returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the server wrote on standard error (after it stopped).
    var standardError: String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

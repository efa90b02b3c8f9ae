import ArgumentParser
import Foundation
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsData
import GeoNewsServer
import GeoNewsStore
import GeoNewsVersion
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `geonews serve` (run through `geonews`, or directly as `geonews-serve`).
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonews-serve",
        abstract: "Serve the GeoNews HTTP API (resolve, countries, favourites, settings).",
        discussion: """
            Prints "geonews-serve: listening on http://HOST:PORT" on standard output once it \
            accepts connections, and runs until SIGTERM or SIGINT, letting requests in flight \
            finish for up to --shutdown-timeout seconds. Exit codes: 0 stopped, 64 bad option, 65 data missing or damaged, \
            69 the address cannot be bound, 74 the state directory or the --store database is unusable \
            (unreachable, the password refused, no such database).
            """,
        version: GeoNewsRelease.version,
        // Operators' commands on the state directory; without one, the server runs.
        subcommands: [TokensCommand.self, BackupCommand.self, RestoreCommand.self]
    )

    @Option(help: ArgumentHelp("Address to bind (default: \(ServerConfiguration.defaults.host)).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("TCP port, 0…65535; 0 picks a free one (default: \(ServerConfiguration.defaults.port)).", valueName: "port"))
    var port: Int?

    @Option(
        help: ArgumentHelp("Folder of the users' database (default: $XDG_STATE_HOME/geonews or ~/.local/state/geonews).", valueName: "dir"))
    var stateDir: String?

    @Option(
        help: ArgumentHelp(
            "PostgreSQL shared by several instances, postgres://user:password@host:port/database[?sslmode=require] (default: $GEONEWS_STORE, else SQLite in --state-dir).",
            valueName: "url"))
    var store: String?

    @Option(
        help: ArgumentHelp(
            "The one browser origin allowed to call the API (e.g. https://map.example.org); no CORS headers without it.",
            valueName: "origin"))
    var corsOrigin: String?

    @Option(
        help: ArgumentHelp(
            "Largest request body accepted, in bytes; larger ones get 413 (default: \(ServerConfiguration.defaults.maximumBodyBytes)).",
            valueName: "bytes"))
    var maxBodyBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may stay silent before it is closed (default: \(ServerConfiguration.defaults.idleTimeoutSeconds)).",
            valueName: "seconds"))
    var idleTimeout: Int64?

    @Option(
        help: ArgumentHelp(
            "Seconds a new connection may take to send its first request's headers (default: \(ServerConfiguration.defaults.headerTimeoutSeconds)).",
            valueName: "seconds"))
    var headerTimeout: Int64?

    @Option(
        help: ArgumentHelp(
            "Seconds a request body may take to arrive, plus one per --body-min-rate bytes received; slower bodies get 408 (default: \(ServerConfiguration.defaults.bodyTimeoutSeconds)).",
            valueName: "seconds"))
    var bodyTimeout: Int64?

    @Option(
        help: ArgumentHelp(
            "Bytes of request body that earn it one more second past --body-timeout; 0: none (default: \(ServerConfiguration.defaults.bodyMinimumRate)).",
            valueName: "bytes"))
    var bodyMinRate: Int?

    @Option(
        help: ArgumentHelp(
            "Seconds the requests in flight have to finish after SIGTERM or SIGINT before their connections are closed (default: \(ServerConfiguration.defaults.shutdownTimeoutSeconds)).",
            valueName: "seconds"))
    var shutdownTimeout: Int64?

    @Option(help: ArgumentHelp("Folder of the web map page served at / (default: WebMap beside Data/ when present).", valueName: "dir"))
    var pageDir: String?

    @Option(
        help: ArgumentHelp("Folder served under /vendor/ (default: Debian's /usr/share/javascript/leaflet when present).", valueName: "dir")
    )
    var vendorDir: String?

    @Option(
        name: .customLong("data"),
        help: ArgumentHelp("The GeoNews Data directory (default: $GEONEWS_DATA, else found beside the executable).", valueName: "dir"))
    var dataPath: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy in front of the server, as an address or a CIDR block (repeatable; default: $GEONEWS_TRUSTED_PROXIES, blocks separated by spaces or commas): from it the client is taken from Forwarded or X-Forwarded-For, the rightmost address that is not a trusted proxy; from any other peer those headers are ignored.",
            valueName: "cidr"))
    var trustedProxies: [String] = []

    @Option(
        help: ArgumentHelp(
            "Append one line per request to this file, in nginx's combined format with the seconds taken, naming the client as --trusted-proxy does; SIGHUP opens it again (default: none).",
            valueName: "file"))
    var accessLog: String?

    @OptionGroup var ownership: OwnershipOptions

    #if BenchmarkRoutes
    // Benchmarks/run-serve.sh's build only: the floor of the stack beside the real routes.
    @Flag(help: ArgumentHelp("Answer GET /v1/benchmark/constant with a constant body (load tests only).", visibility: .hidden))
    var benchmarkConstantRoute = false
    #endif

    func run() async throws {
        let data: DataDirectory
        do {
            data = try dataPath.map { DataDirectory(path: $0) } ?? DataDirectory.locate()
        } catch {
            throw fail("\(error)", .dataError)
        }
        var configuration = ServerConfiguration(
            stateDirectory: stateDir.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultStateDirectory())
        // An option given replaces the configuration's default; ServerConfiguration states each
        // default once and checks every range.
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        configuration.corsOrigin = corsOrigin
        if let maxBodyBytes { configuration.maximumBodyBytes = maxBodyBytes }
        if let idleTimeout { configuration.idleTimeoutSeconds = idleTimeout }
        if let headerTimeout { configuration.headerTimeoutSeconds = headerTimeout }
        if let bodyTimeout { configuration.bodyTimeoutSeconds = bodyTimeout }
        if let bodyMinRate { configuration.bodyMinimumRate = bodyMinRate }
        if let shutdownTimeout { configuration.shutdownTimeoutSeconds = shutdownTimeout }
        #if BenchmarkRoutes
        configuration.benchmarkConstantRoute = benchmarkConstantRoute
        #endif
        configuration.trustedProxies = trustedProxies.isEmpty ? Self.proxies(ProcessInfo.processInfo.environment) : trustedProxies
        configuration.accessLogPath = accessLog
        ownership.apply(to: &configuration)
        do {
            try configuration.validate()
        } catch {
            throw fail(error.description, .usage)
        }
        configuration.postgres = try Self.postgres(store ?? ProcessInfo.processInfo.environment["GEONEWS_STORE"])
        configuration.pageDirectory = try folder(
            pageDir, option: "--page-dir",
            fallback: URL(fileURLWithPath: data.path).deletingLastPathComponent().appendingPathComponent("WebMap").path)
        configuration.vendorDirectory = try folder(vendorDir, option: "--vendor-dir", fallback: "/usr/share/javascript/leaflet")

        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "geonews-serve")
        logger.logLevel = .notice
        do {
            try await GeoNewsAPI.run(configuration: configuration, data: data, logger: logger) { [host = configuration.host] port in
                // Unbuffered, so that a supervisor or a test reading the pipe sees it at once.
                FileHandle.standardOutput.write(Data("geonews-serve: listening on http://\(host):\(port)\n".utf8))
            }
        } catch let error as ServerStartError {
            switch error {
            case .data: throw fail(error.description, .dataError)
            case .state: throw fail(error.description, .ioError)
            }
        } catch {
            throw fail("cannot serve on \(configuration.host):\(configuration.port): \(error)", .unavailable)
        }
    }

    /// The blocks of `GEONEWS_TRUSTED_PROXIES` (as `/etc/default/geonews` sets it), separated
    /// by spaces or commas; none when it is unset.
    static func proxies(_ environment: [String: String]) -> [String] {
        (environment["GEONEWS_TRUSTED_PROXIES"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    }

    /// The PostgreSQL address of `--store` or `GEONEWS_STORE`; `nil` (SQLite) when neither is
    /// set. A malformed one is one line, with its password as `***`, and exit code 64.
    static func postgres(_ text: String?) throws -> PostgresLocation? {
        guard let text, !text.isEmpty else { return nil }
        do {
            return try PostgresLocation(parsing: text)
        } catch {
            throw fail(error.description, .usage)
        }
    }

    /// A folder option that must exist when given; the fallback only when it exists.
    private func folder(_ given: String?, option: String, fallback: String) throws -> String? {
        var isFolder: ObjCBool = false
        if let given {
            guard FileManager.default.fileExists(atPath: given, isDirectory: &isFolder), isFolder.boolValue else {
                throw fail("\(option) '\(given)' is not a folder", .noInput)
            }
            return given
        }
        return FileManager.default.fileExists(atPath: fallback, isDirectory: &isFolder) && isFolder.boolValue ? fallback : nil
    }
}

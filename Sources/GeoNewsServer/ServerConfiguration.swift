import Foundation
import GeoNewsStore

/// How `geonews-serve` listens and where it keeps its state.
public struct ServerConfiguration: Sendable {
    /// The address to bind; loopback unless told otherwise.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (the chosen port is printed on standard output).
    public var port = 8080
    /// The folder holding the SQLite database of users, favourites and settings.
    public var stateDirectory: URL
    /// The PostgreSQL database several instances share (`--store`), or `nil` for SQLite in
    /// ``stateDirectory``. Uploaded datasets are then also cached in ``stateDirectory``.
    public var postgres: PostgresLocation?
    /// The one origin allowed to call the API from a browser on another origin; `nil` sends
    /// no CORS headers at all.
    public var corsOrigin: String?
    /// The largest request body accepted, in bytes; past it the answer is 413.
    public var maximumBodyBytes = 64 << 20
    /// Seconds a connection may stay open without sending or receiving anything (a slow or
    /// stalled client included) before it is closed.
    public var idleTimeoutSeconds: Int64 = 30
    /// Seconds a new connection may take to send its first request's head, whole; a client
    /// that connects and stays silent, or sends its headers a byte at a time, is cut off then.
    public var headerTimeoutSeconds: Int64 = 10
    /// Seconds a request body may take to arrive, plus the time ``bodyMinimumRate`` earns it;
    /// past that the answer is 408 (or, when an answer has begun, the connection is closed).
    public var bodyTimeoutSeconds: Int64 = 60
    /// Bytes per second of body that earn it one more second past ``bodyTimeoutSeconds``, so
    /// that a large upload over a slow link goes through; 0 earns none.
    public var bodyMinimumRate = 64 << 10
    /// Seconds the requests in flight have, once SIGTERM or SIGINT arrives, to finish; then the
    /// connections still open are closed (a body still arriving gets 503) and the server exits.
    public var shutdownTimeoutSeconds: Int64 = 30
    /// The folder of the web map page served at `/`, or `nil` for none.
    public var pageDirectory: String?
    /// The folder served under `/vendor/` (Debian's libjs-leaflet), or `nil` for none.
    public var vendorDirectory: String?

    /// Seconds a bearer token stays valid after `POST /v1/users` issued it; past that it
    /// answers 401. Default 90 days.
    public var tokenLifetimeSeconds: Int64 = 90 * 86_400
    /// The most points one user's datasets may hold together; an upload past it gets 413.
    public var quotaPoints = 2_000_000
    /// The most bytes of upload one user's datasets may hold together; past it, 413.
    public var quotaBytes = 256 << 20
    /// The most points one upload may have; past it, 413 (`--max-upload-points`).
    public var maximumUploadPoints = 2_000_000
    /// The most bytes all stored datasets (points files and cluster archives) may take
    /// together; an upload past it gets 413 (`--max-dataset-bytes`).
    public var maximumDatasetBytes = 8 << 30
    /// The most bytes of cluster archives mapped at once; past it the least recently used
    /// datasets are unmapped, never deleted (`--mapped-dataset-budget`).
    public var mappedDatasetBudget = 1 << 30
    /// The most uploads clustered at once: each holds its points and index on the heap while
    /// it builds (about 300 MB for a million points); more wait their turn
    /// (`--max-concurrent-dataset-builds`).
    public var maximumConcurrentDatasetBuilds = 2
    /// Seconds an upload may wait for its turn to be clustered; past them it gets 503 with
    /// `Retry-After` (`--dataset-build-wait`). 0 waits not at all.
    public var datasetBuildWaitSeconds: Int64 = 30
    /// Writes (POST, PUT, DELETE on users, favourites, settings and datasets) one client
    /// address may make per second, on average; past the burst the answer is 429.
    public var writesPerSecond = 5.0
    /// Writes one client address may make at once before the rate applies.
    public var writeBurst = 30
    /// The proxies in front of the server, as CIDR blocks (`--trusted-proxy`): from them the
    /// client address is taken from `Forwarded` or `X-Forwarded-For` (``TrustedProxies``).
    public var trustedProxies: [String] = []
    /// Where the access log is appended (`--access-log`), one line per request naming the
    /// client (``AccessLog``); none when `nil`.
    public var accessLogPath: String?
    /// Client addresses whose write rate is tracked at once; past it the fullest buckets
    /// (the addresses quiet longest) are forgotten, so memory stays bounded.
    public var trackedAddresses = 10_000

    #if BenchmarkRoutes
    /// Whether `GET /v1/benchmark/constant` answers: the `/v1/resolve` answer for Paris,
    /// worked out once at start, through the same pipeline (event-loop answers, router,
    /// middleware), so that a load test can measure the floor of the stack beside the real
    /// routes. Only in a build with the `BenchmarkRoutes` trait (`Benchmarks/run-serve.sh`'s),
    /// and off unless it asks (`--benchmark-constant-route`); no client needs it.
    public var benchmarkConstantRoute = false
    #endif

    public init(stateDirectory: URL) {
        self.stateDirectory = stateDirectory
    }

    /// The most ``maximumConcurrentDatasetBuilds``: past a few, builds only share the cores and
    /// add to the heap.
    public static let mostConcurrentDatasetBuilds = 64
    /// The longest ``datasetBuildWaitSeconds``: an hour.
    public static let longestDatasetBuildWait: Int64 = 3_600

    /// A value out of its range, named as the command line names it.
    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Throws, naming the first value out of its range, unless every value is one the server
    /// can run with: `geonews-serve` checks its options here before it binds, and
    /// ``GeoNewsAPI/run(configuration:data:logger:onListening:)`` checks again.
    public func validate() throws(Refusal) {
        func refuse(_ text: String) -> Refusal { Refusal(description: text) }
        guard (0...65535).contains(port) else { throw refuse("port \(port) is outside 0…65535") }
        guard maximumBodyBytes > 0 else { throw refuse("max body bytes \(maximumBodyBytes) must be above 0") }
        guard idleTimeoutSeconds > 0 else { throw refuse("idle timeout \(idleTimeoutSeconds) must be above 0 seconds") }
        guard headerTimeoutSeconds > 0 else { throw refuse("header timeout \(headerTimeoutSeconds) must be above 0 seconds") }
        guard bodyTimeoutSeconds > 0 else { throw refuse("body timeout \(bodyTimeoutSeconds) must be above 0 seconds") }
        guard bodyMinimumRate >= 0 else { throw refuse("body min rate \(bodyMinimumRate) must be 0 or more bytes per second") }
        guard shutdownTimeoutSeconds > 0 else { throw refuse("shutdown timeout \(shutdownTimeoutSeconds) must be above 0 seconds") }
        if let corsOrigin, URL(string: corsOrigin)?.host == nil {
            throw refuse("CORS origin '\(corsOrigin)' is not of the form scheme://host[:port]")
        }
        guard tokenLifetimeSeconds > 0 else { throw refuse("token lifetime \(tokenLifetimeSeconds) s must be above 0") }
        guard quotaPoints > 0 else { throw refuse("quota points \(quotaPoints) must be above 0") }
        guard quotaBytes > 0 else { throw refuse("quota bytes \(quotaBytes) must be above 0") }
        guard (1...Int(Int32.max)).contains(maximumUploadPoints) else {
            throw refuse("max upload points \(maximumUploadPoints) is outside 1…\(Int32.max)")
        }
        guard maximumDatasetBytes > 0 else { throw refuse("max dataset bytes \(maximumDatasetBytes) must be above 0") }
        guard mappedDatasetBudget > 0 else { throw refuse("mapped dataset budget \(mappedDatasetBudget) must be above 0") }
        guard (1...Self.mostConcurrentDatasetBuilds).contains(maximumConcurrentDatasetBuilds) else {
            throw refuse(
                "max concurrent dataset builds \(maximumConcurrentDatasetBuilds) is outside 1…\(Self.mostConcurrentDatasetBuilds)")
        }
        guard (0...Self.longestDatasetBuildWait).contains(datasetBuildWaitSeconds) else {
            throw refuse("dataset build wait \(datasetBuildWaitSeconds) is outside 0…\(Self.longestDatasetBuildWait) seconds")
        }
        guard writesPerSecond > 0, writesPerSecond <= 1_000_000 else {
            throw refuse("write rate \(writesPerSecond) must be above 0 and at most 1000000 per second")
        }
        guard (1...1_000_000).contains(writeBurst) else { throw refuse("write burst \(writeBurst) is outside 1…1000000") }
        guard (1...10_000_000).contains(trackedAddresses) else {
            throw refuse("tracked addresses \(trackedAddresses) is outside 1…10000000")
        }
        if let accessLogPath, accessLogPath.isEmpty || accessLogPath.utf8.count > 4_096 || accessLogPath.contains("\0") {
            throw refuse("access log '\(accessLogPath.prefix(64))' is not a file path")
        }
        guard trustedProxies.count <= 1_000 else { throw refuse("\(trustedProxies.count) trusted proxies is more than 1000") }
        for block in trustedProxies where TrustedProxies.Block(parsing: block[...]) == nil {
            throw refuse("trusted proxy '\(block.prefix(64))' is not an address or a CIDR block (such as 10.0.0.0/8 or fd00::/8)")
        }
    }

    /// Every default, with the state directory's: the one place they are stated (the options of
    /// `geonews-serve` show them in their help).
    public static var defaults: ServerConfiguration { ServerConfiguration(stateDirectory: defaultStateDirectory()) }

    /// `$XDG_STATE_HOME/geonews`, else `~/.local/state/geonews`.
    /// ``trustedProxies`` parsed (``validate()`` refuses a block that does not parse).
    public var proxies: TrustedProxies { TrustedProxies(trustedProxies.compactMap { TrustedProxies.Block(parsing: $0[...]) }) }

    public static func defaultStateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            return URL(fileURLWithPath: state).appendingPathComponent("geonews")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/geonews")
    }
}

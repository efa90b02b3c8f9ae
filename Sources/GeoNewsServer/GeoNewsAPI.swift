import Foundation
import GeoNews
import GeoNewsDatasets
import GeoNewsStore
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP API of `geonews serve`: the routes, their middleware and the service group that
/// runs them until SIGTERM or SIGINT.
public enum GeoNewsAPI {
    /// Loads the data and the state database, binds, and serves until SIGTERM or SIGINT; then
    /// stops accepting connections, lets requests in flight finish for up to
    /// ``ServerConfiguration/shutdownTimeoutSeconds``, closes the connections still open, and
    /// returns.
    ///
    /// - Parameters:
    ///   - onListening: called once with the bound port (the chosen one when `port` is 0).
    /// - Throws: ``ServerStartError`` when the data, the state directory or the address is
    ///   unusable.
    public static func run(
        configuration: ServerConfiguration, data: DataDirectory, logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        try configuration.validate()
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusNaming(registry: registry))
        let store = try await openStore(configuration, logger: logger)
        do {
            try await serve(
                configuration: configuration, data: data, store: store, registry: registry, logger: logger, onListening: onListening)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// The store `configuration` names: PostgreSQL for ``ServerConfiguration/postgres``, else
    /// SQLite in the state directory.
    static func openStore(_ configuration: ServerConfiguration, logger: Logger) async throws(ServerStartError) -> any ServerStore {
        if let location = configuration.postgres {
            do {
                return try await PostgresStore.open(location, logger: logger)
            } catch {
                throw .state(error.description)
            }
        }
        do {
            return try SQLiteStore(directory: configuration.stateDirectory)
        } catch {
            throw .state(error.description)
        }
    }

    private static func serve(
        configuration: ServerConfiguration, data: DataDirectory, store: any ServerStore, registry: PrometheusCollectorRegistry,
        logger: Logger, onListening: @escaping @Sendable (Int) -> Void
    ) async throws {
        let records: [DatasetRecord]
        do {
            records = try await store.allDatasets().filter {
                // Another instance's upload with no file here yet is fetched on first use.
                !store.sharesDatasetPoints
                    || FileManager.default.fileExists(
                        atPath: configuration.stateDirectory.appendingPathComponent("datasets").appendingPathComponent($0.file).path)
            }
        } catch {
            throw ServerStartError.state("the uploaded datasets cannot be listed: \(error)")
        }
        let state = try load(configuration: configuration, data: data, store: store, records: records)
        for (id, reason) in state.datasets.unavailable {
            logger.warning("dataset \(id) is left out until its points can be read: \(reason)")
        }
        let requestMetrics = RequestMetrics()
        let plainRoutes = try PlainRoutes(state: state, metrics: requestMetrics)
        var accessLog: AccessLog?
        if let path = configuration.accessLogPath {
            do {
                accessLog = try AccessLog(path: path)
            } catch {
                throw ServerStartError.state(error.description)
            }
        }
        let reopening = accessLog.map(Self.reopenOnHangUp)
        defer { reopening?.cancel() }
        let router = try makeRouter(
            state: state, plainRoutes: plainRoutes, metrics: registry, requestMetrics: requestMetrics, accessLog: accessLog,
            logger: logger)
        let deadlines = BodyDeadline.Limits(
            timeoutSeconds: configuration.bodyTimeoutSeconds, bytesPerSecond: configuration.bodyMinimumRate,
            shutdownSeconds: configuration.shutdownTimeoutSeconds)
        let answers = EventLoopAnswers.Routes(
            table: plainRoutes, serverName: "geonews", corsOrigin: configuration.corsOrigin,
            proxies: configuration.proxies, accessLog: accessLog)
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GeoNewsHTTP1Channel(
                    responder: responder, idleTimeout: .seconds(configuration.idleTimeoutSeconds),
                    extraHandlers: {
                        [
                            RequestHeadTimeout(timeout: .seconds(configuration.headerTimeoutSeconds)),
                            ExpectContinue(maximumBytes: configuration.maximumBodyBytes),
                            BodyDeadline(limits: deadlines),
                        ]
                    },
                    answers: answers)
            },
            // No server name: ``ResponseFraming`` writes `Server` on every response.
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
        var groupConfiguration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Each connection closes itself at the shutdown deadline (``BodyDeadline``); past it and
        // a margin, the tasks still running are cancelled.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(configuration.shutdownTimeoutSeconds) + BodyDeadline.shutdownMargin
        let group = ServiceGroup(configuration: groupConfiguration)
        // Another instance's deletions reach this one within a round (PostgreSQL only).
        let reconciling = Task { [shared = state.sharedDatasets] in await shared.reconcileUntilCancelled() }
        defer { reconciling.cancel() }
        do {
            try await group.run()
        } catch {
            await accessLog?.close()
            throw error
        }
        await accessLog?.close()
    }

    /// `SIGHUP` (`systemctl reload`, logrotate's `postrotate`) opens the access log's path
    /// again, instead of ending the process as it would by default.
    private static func reopenOnHangUp(_ log: AccessLog) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { log.reopen() }
        source.resume()
        return source
    }

    static func load(
        configuration: ServerConfiguration, data: DataDirectory, store: any ServerStore, records: [DatasetRecord]
    ) throws(ServerStartError) -> ServerState {
        let resolver: CountryResolver
        do {
            // One resolver for single positions and batches alike: the measures go with each call.
            resolver = try CountryResolver.load(from: data, options: .server)
        } catch {
            throw .data("\(error)")
        }
        let zoneRules: TimeZoneRules
        do {
            zoneRules = try TimeZoneRules.load(from: data)
        } catch {
            throw .data("\(error)")
        }
        let places: PlaceIndex
        do {
            places = try PlaceIndex.load(from: data)
        } catch {
            throw .data("\(error)")
        }
        let regions: RegionIndex
        let regionCatalogue: RegionCatalogue
        do {
            regions = try RegionIndex.load(from: data)
            regionCatalogue = try regions.catalogue()
        } catch {
            throw .data("\(error)")
        }
        let markers: ClusterDataset
        do {
            markers = try ClusterDataset.markers(resolver.catalogue)
        } catch {
            throw .data("the news markers cannot be clustered: \(error)")
        }
        let datasets: DatasetRegistry
        do {
            datasets = try DatasetRegistry(
                markers: markers, records: records, stateDirectory: configuration.stateDirectory,
                mappedBudget: configuration.mappedDatasetBudget, maximumPoints: configuration.maximumUploadPoints,
                storageLimit: configuration.maximumDatasetBytes, concurrentBuilds: configuration.maximumConcurrentDatasetBuilds,
                buildWait: .seconds(configuration.datasetBuildWaitSeconds))
        } catch {
            throw .state("the uploaded datasets cannot be loaded: \(error)")
        }
        datasets.startVerifyingStoredArchives()
        let headlines = Result { () throws(HeadlineSetupError) -> HeadlineService in
            do {
                let setup = try HeadlineConfiguration.fromEnvironment(
                    editionTable: URL(fileURLWithPath: data.file("google-news-editions.json")))
                return try HeadlineService(configuration: setup)
            } catch {
                throw HeadlineSetupError(reason: "\(error)")
            }
        }
        return ServerState(
            resolver: resolver,
            zoneRules: zoneRules,
            places: places,
            regions: regions,
            regionCatalogue: regionCatalogue,
            store: store, configuration: configuration,
            datasets: datasets, sharedDatasets: SharedDatasets(store: store, registry: datasets), headlines: headlines,
            basemap: BasemapRoutes(data: data))
    }

    /// Every route, under the middleware every request passes: CORS when an origin is
    /// The client's address and the access log (outermost, so that the log sees every answer),
    /// CORS when an origin is configured (so that problems get its headers too), problem JSON,
    /// metrics, the write rate limit and the body limit.
    static func makeRouter(
        state: ServerState, plainRoutes: PlainRoutes, metrics: PrometheusCollectorRegistry, requestMetrics: RequestMetrics,
        accessLog: AccessLog?, logger: Logger
    ) throws -> Router<RouteBuilder.Context> {
        let router = Router(context: RouteBuilder.Context.self)
        router.add(middleware: ClientAddressMiddleware(proxies: state.configuration.proxies, accessLog: accessLog))
        if let origin = state.configuration.corsOrigin {
            router.add(middleware: CrossOrigin(origin: origin))
        }
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: RequestMetricsMiddleware(metrics: requestMetrics))
        router.add(
            middleware: WriteRateLimit(
                buckets: WriteBuckets(
                    rate: state.configuration.writesPerSecond, burst: state.configuration.writeBurst,
                    trackedAddresses: state.configuration.trackedAddresses)))
        router.add(middleware: AnswerCompressionMiddleware())
        router.add(middleware: BodyLimitMiddleware(maximumBytes: state.configuration.maximumBodyBytes))
        if let folder = state.configuration.vendorDirectory {
            router.add(middleware: CompressedFolderMiddleware(folder: folder, urlBasePath: "/vendor", cacheControl: "public, max-age=3600"))
        }
        if let folder = state.configuration.pageDirectory {
            router.add(middleware: CompressedFolderMiddleware(folder: folder, cacheControl: "no-cache"))
        }
        var routes = RouteBuilder(router: router)
        HealthRoutes(state: state, metrics: metrics).add(to: &routes)
        CountryRoutes(state: state).add(to: &routes)
        UserRoutes(state: state).add(to: &routes)
        FavouriteRoutes(state: state).add(to: &routes)
        SettingsRoutes(state: state).add(to: &routes)
        plainRoutes.add(to: &routes)
        BatchResolveRoutes(state: state).add(to: &routes)
        ClusterRoutes(state: state).add(to: &routes)
        TileRoutes(state: state).add(to: &routes)
        DatasetRoutes(state: state).add(to: &routes)
        HeadlineRoutes(state: state).add(to: &routes)
        try OpenAPIRoutes().add(to: &routes)
        state.basemap.add(to: &routes)
        routes.finish()
        return router
    }
}

/// Why the server could not start.
public enum ServerStartError: Error, CustomStringConvertible {
    /// The Data/ folder is missing or damaged.
    case data(String)
    /// The state directory or its database is unusable, or the PostgreSQL store cannot be
    /// reached or refuses the server.
    case state(String)

    public var description: String {
        switch self {
        case .data(let reason): return reason
        case .state(let reason): return reason
        }
    }
}

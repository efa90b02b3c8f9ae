import Foundation
import GeoNews
import Hummingbird
import HummingbirdCore

/// The routes answered from the request head alone, without waiting on anything: built once
/// at start, and the one place both doors answer them from. ``EventLoopAnswers`` answers a
/// request on the connection's event loop when it can; the router, through the handlers
/// ``add(to:)`` registers, answers the rest (HEAD, CORS, pipelined requests). Either way the
/// query is parsed once, and a bad one is answered with its problem JSON where it is found.
struct PlainRoutes: Sendable {
    /// The routes by path.
    private let routes: [String: Route]

    /// One route: its path, the answer to a query, and what to do when no answer is plain.
    struct Route: Sendable {
        let path: String
        /// The answer to a query with these header fields, or `nil` when it needs
        /// ``slowAnswer`` (a resolution with headlines waits on the providers). Throws the
        /// ``Problem`` a bad parameter earns.
        let answer: @Sendable (QueryParameters, HTTPFields) throws -> PlainAnswer?
        /// The router's answer when ``answer`` gives none.
        let slowAnswer: RouteBuilder.Handler?
        let metrics: RequestMetrics.Route
    }

    #if BenchmarkRoutes
    /// The paths of the constant routes of `ServerConfiguration.benchmarkConstantRoute` (a build
    /// with the `BenchmarkRoutes` trait only): one as large as a resolution, one as large as the
    /// clusters at 15,000 km.
    static let constantPath = "/v1/benchmark/constant"
    static let constantClustersPath = "/v1/benchmark/constant-clusters"
    #endif

    init(state: ServerState, metrics: RequestMetrics) throws {
        var table: [Route] = [
            Route(
                path: "/v1/resolve", answer: { try ResolveRoutes.plainAnswer($0, state: state, fields: $1) },
                slowAnswer: ResolveRoutes(state: state).headlineAnswer, metrics: RequestMetrics.Route("/v1/resolve", in: metrics)),
            Route(
                path: "/v1/clusters", answer: { try ClusterRoutes.plainAnswer($0, state: state, fields: $1) },
                slowAnswer: ClusterRoutes(state: state).slowAnswer, metrics: RequestMetrics.Route("/v1/clusters", in: metrics)),
        ]
        #if BenchmarkRoutes
        if state.configuration.benchmarkConstantRoute {
            let constants = [
                (Self.constantPath, try Self.constantAnswer(ResolveRoutes.plainAnswer, "/v1/resolve?lat=48.8566&lon=2.3522", state)),
                (Self.constantClustersPath, try Self.constantAnswer(ClusterRoutes.plainAnswer, "/v1/clusters?altitude=15000km", state)),
            ]
            for (path, constant) in constants {
                table.append(
                    Route(path: path, answer: { _, _ in constant }, slowAnswer: nil, metrics: RequestMetrics.Route(path, in: metrics)))
            }
        }
        #endif
        routes = Dictionary(uniqueKeysWithValues: table.map { ($0.path, $0) })
    }

    /// The route at `path`, if it is one of these.
    func route(_ path: String) -> Route? { routes[path] }

    /// Registers every route on the router (GET, and HEAD through ``RouteBuilder/get(_:_:)``).
    func add(to builder: inout RouteBuilder) {
        for route in routes.values.sorted(by: { $0.path < $1.path }) {
            builder.get(route.path) { request, context in
                if let plain = try route.answer(request.parameters, request.headers) { return plain.response }
                guard let slow = route.slowAnswer else { throw Problem(.internalServerError, detail: "no answer for \(route.path)") }
                return try await slow(request, context)
            }
        }
    }

    #if BenchmarkRoutes
    /// The floor of the stack under load (`--benchmark-constant-route`): the answer to `target`
    /// worked out once, with its headers (`Content-Type`, `ETag`, `Cache-Control`, `Vary`), so
    /// that a constant route writes as many bytes and the same header fields as the route it
    /// stands beside, and does nothing else.
    private static func constantAnswer(
        _ route: (QueryParameters, ServerState, HTTPFields) throws -> PlainAnswer?, _ target: String, _ state: ServerState
    ) throws -> PlainAnswer {
        guard let answer = try route(QueryParameters(URI(target)), state, [:]) else {
            throw Problem(.internalServerError, detail: "the constant answer for \(target) could not be built")
        }
        return answer
    }
    #endif
}

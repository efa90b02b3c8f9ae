import Hummingbird

/// Registers routes on the router and remembers the methods of each path, so that other
/// methods on a known path answer 405 rather than 404.
struct RouteBuilder {
    typealias Context = ClientRequestContext
    typealias Handler = @Sendable (Request, Context) async throws -> Response

    let router: Router<Context>
    private(set) var allowed = AllowedMethods()

    init(router: Router<Context>) { self.router = router }

    /// A GET route, and HEAD on the same path (RFC 9110 §9.3.2): the GET's status and
    /// headers, its Content-Length included, without the body.
    mutating func get(_ path: String, _ handler: @escaping Handler) {
        on(.get, path, handler)
        router.on(RouterPath(path), method: .head) { request, context in
            let response = try await handler(request, context)
            return Response(status: response.status, headers: response.headers, body: .init())
        }
    }
    mutating func post(_ path: String, _ handler: @escaping Handler) { on(.post, path, handler) }
    mutating func put(_ path: String, _ handler: @escaping Handler) { on(.put, path, handler) }
    mutating func delete(_ path: String, _ handler: @escaping Handler) { on(.delete, path, handler) }

    mutating func on(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        allowed.record(method, path)
        router.on(RouterPath(path), method: method, use: handler)
    }

    /// Adds the 405 answers; call once, after every route.
    func finish() { allowed.addRefusals(to: router) }
}

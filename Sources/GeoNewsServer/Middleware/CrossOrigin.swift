import Hummingbird

/// CORS for the one browser origin `--cors-origin` names (the Fetch standard's CORS
/// protocol): a preflight `OPTIONS` gets 204 with the methods and headers allowed, and every
/// other answer to a request with an `Origin`, problems included, gets
/// `Access-Control-Allow-Origin` and the response headers the page may read (`ETag` for
/// `If-None-Match`, `Location` of a new dataset, `Retry-After`).
///
/// It runs outside ``ProblemMiddleware``, so it sees every error already turned into its
/// problem answer and never has to wrap one (Hummingbird's `CORSMiddleware` rethrows errors
/// wrapped in a type no other middleware can read, which made every error a bare 500).
struct CrossOrigin<Context: RequestContext>: RouterMiddleware {
    /// The origin allowed, as `scheme://host[:port]`.
    let origin: String
    /// How long a browser may cache a preflight's answer, in seconds.
    var maxAgeSeconds = 600

    static var allowedMethods: String { "GET, HEAD, POST, PUT, DELETE" }
    static var allowedHeaders: String { "Accept, Authorization, Content-Type, If-None-Match" }
    static var exposedHeaders: String { "ETag, Location, Retry-After" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.origin] != nil else { return try await next(request, context) }
        if request.method == .options {
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: origin, .accessControlAllowMethods: Self.allowedMethods,
                    .accessControlAllowHeaders: Self.allowedHeaders, .accessControlMaxAge: String(maxAgeSeconds),
                    .vary: "Origin",
                ])
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        response.headers[values: .vary].append("Origin")
        return response
    }
}

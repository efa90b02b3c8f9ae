import Hummingbird

/// Refuses a request whose declared `Content-Length` is past the limit with 413 before its
/// body is read. Bodies without a length are held to the same limit as they are read
/// (``Request/collectBody(upTo:)`` throws 413).
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest body accepted, in bytes.
    let maximumBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBytes {
            throw Problem(
                .contentTooLarge,
                detail: "the request body of \(length) bytes is larger than the limit of \(maximumBytes) bytes (--max-body-bytes)")
        }
        return try await next(request, context)
    }
}

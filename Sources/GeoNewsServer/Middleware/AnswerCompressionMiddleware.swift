import Hummingbird

/// ``AnswerEncoding`` for the answers routes build whole (JSON, GeoJSON, vector tiles):
/// `Vary: Accept-Encoding`, and gzip when accepted and large enough. Answers already encoded
/// (the cluster routes and static files compress their own, to keep the gzip form cached) and
/// streamed answers (no length known in advance) pass untouched.
struct AnswerCompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard request.method != .head, response.status == .ok, response.headers[.contentEncoding] == nil,
            let type = response.headers[.contentType], AnswerEncoding.compressedTypes.contains(type),
            response.body.contentLength != nil
        else { return response }
        let collected = Collector()
        try await response.body.write(collected)
        var headers = response.headers
        headers[.contentLength] = nil  // the answer's own, from its body (``PlainAnswer``)
        let plain = PlainAnswer(status: response.status, headers: headers, body: collected.buffer.buffer)
        return AnswerEncoding.encode(plain, acceptsGzip: AnswerEncoding.acceptsGzip(request.headers)).response
    }

    /// A body writer that keeps what is written.
    private struct Collector: ResponseBodyWriter {
        final class Buffer { var buffer = ByteBuffer() }
        let buffer = Buffer()

        mutating func write(_ buffer: ByteBuffer) async throws {
            var part = buffer
            self.buffer.buffer.writeBuffer(&part)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

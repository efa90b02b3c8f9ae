import HTTPTypes
import Hummingbird

/// A complete answer known without waiting on anything: status, headers and the encoded body.
/// The routes turn it into a ``Response``; ``EventLoopAnswers`` writes it straight to the
/// connection. One builder for both, so the two can never answer differently.
///
/// Its ``headers`` never hold `Content-Length`, `Date` or `Server` (added where it is
/// written), nor a `Cache-Control` when ``cacheControl`` is set.
struct PlainAnswer: Sendable {
    var status: HTTPResponse.Status = .ok
    var headers: HTTPFields
    var body: ByteBuffer
    /// A `Cache-Control` that differs from one request to the next (a resolution's `max-age`
    /// counts down to the half hour), added where the answer is written: setting it on a kept
    /// answer's headers would copy them once more per request.
    var cacheControl: String? = nil

    /// Whether the status forbids a body, and so a `Content-Length` (RFC 9110 §8.6): 204 and 304.
    var hasNoBody: Bool { status == .noContent || status == .notModified }

    var response: Response {
        var fields = headers
        if let cacheControl { fields.append(HTTPField(name: .cacheControl, value: cacheControl)) }
        return Response(status: status, headers: fields, body: hasNoBody ? ResponseBody() : .init(byteBuffer: body))
    }
}

import HTTPTypes
import Hummingbird

/// A complete answer known without waiting on anything: status, headers and the encoded body.
/// The routes turn it into a ``Response``; ``EventLoopAnswers`` writes it straight to the
/// connection. One builder for both, so the two can never answer differently.
///
/// Its ``headers`` never hold `Content-Length` (``fields(reserving:)`` adds it), `Date` or
/// `Server` (``ResponseFraming`` adds them to every response), nor a `Cache-Control` when
/// ``cacheControl`` is set.
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

    /// The header fields the answer leaves with, but for the framing's, with room for
    /// `extra` more. Appended, not set: ``headers`` holds none of them, and setting a field
    /// looks for it first, a search per field per request.
    func fields(reserving extra: Int = 0) -> HTTPFields {
        var fields = headers
        fields.reserveCapacity(fields.count + 2 + extra)
        if let cacheControl { fields.append(HTTPField(name: .cacheControl, value: cacheControl)) }
        if !hasNoBody { fields.append(HTTPField(name: .contentLength, value: String(body.readableBytes))) }
        return fields
    }

    /// The answer as the router gives it.
    var response: Response {
        Response(status: status, headers: fields(), body: hasNoBody ? ResponseBody() : .init(byteBuffer: body))
    }
}

import Hummingbird

/// A complete answer known without waiting on anything: status, headers and the encoded body.
/// The routes turn it into a ``Response``; ``EventLoopAnswers`` writes it straight to the
/// connection. One builder for both, so the two can never answer differently.
struct PlainAnswer: Sendable {
    var status: HTTPResponse.Status = .ok
    var headers: HTTPFields
    var body: ByteBuffer

    /// Whether the status forbids a body, and so a `Content-Length` (RFC 9110 §8.6): 204 and 304.
    var hasNoBody: Bool { status == .noContent || status == .notModified }

    var response: Response {
        Response(status: status, headers: headers, body: hasNoBody ? ResponseBody() : .init(byteBuffer: body))
    }
}

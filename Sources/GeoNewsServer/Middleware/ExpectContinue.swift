import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with an interim `100 Continue` (RFC 9110 §10.1.1), which
/// Hummingbird does not send: without it a client such as curl waits a second before sending
/// an upload's body (every POST of a file over 1 MB). A body declared past `maximumBytes`
/// gets no 100, so the client need not send what the final 413 will refuse.
final class ExpectContinue: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let maximumBytes: Int

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data),
           head.headerFields[.expect]?.lowercased() == "100-continue",
           (head.headerFields[.contentLength].flatMap(Int.init) ?? 0) <= maximumBytes {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}

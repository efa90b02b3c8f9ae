import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with an interim `100 Continue` (RFC 9110 §10.1.1), which
/// Hummingbird does not send: without it a client such as curl waits a second before sending
/// an upload's body (every POST of a file over 1 MB). A body declared past `maximumBytes`
/// gets no 100, so the client need not send what the final 413 will refuse.
///
/// The 100 belongs between its own request's answers only: when requests are pipelined, the
/// one for a later request waits until every earlier answer has ended, rather than landing in
/// the middle of one, and it is dropped when the final answer comes first.
final class ExpectContinue: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let maximumBytes: Int
    /// The requests read whose answer has not ended, in order: whether each still waits for
    /// its 100.
    private var unanswered = CircularBuffer<Bool>()

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            let expects =
                head.headerFields[.expect]?.lowercased() == "100-continue"
                && (head.headerFields[.contentLength].flatMap(Int.init) ?? 0) <= maximumBytes
            if expects && unanswered.isEmpty {
                unanswered.append(false)
                sendContinue(context)
            } else {
                unanswered.append(expects)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response) where response.status.kind != .informational:
            if !unanswered.isEmpty { unanswered[unanswered.startIndex] = false }
            context.write(data, promise: promise)
        case .end:
            context.write(data, promise: promise)
            if !unanswered.isEmpty { unanswered.removeFirst() }
            if unanswered.first == true {
                unanswered[unanswered.startIndex] = false
                sendContinue(context)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    private func sendContinue(_ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
    }
}

import NIOCore
import NIOHTTP1

/// Closes a connection after the answer to a request that does not keep it open (RFC 9112
/// §9.3): an HTTP/1.0 request without `Connection: keep-alive`, or any request with
/// `Connection: close`.
///
/// The HTTP types the rest of the pipeline uses carry no version, so this sits before them,
/// on NIO's own request and response heads. An HTTP/1.0 request is answered in HTTP/1.0: no
/// chunked encoding, which such a client cannot read (RFC 9112 §6.1), but a body that ends
/// with the connection when its length is not known, and no `100 Continue` (RFC 9110 §15.2).
final class ConnectionPersistence: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The requests whose answer has not ended, in order.
    private var requests = CircularBuffer<(version: HTTPVersion, persists: Bool)>()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            requests.append((head.version, head.isKeepAlive))
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let request = requests.first else { return context.write(data, promise: promise) }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if head.status.code < 200 {
                guard request.version != .http1_0 else {
                    promise?.succeed(())
                    return
                }
                return context.write(data, promise: promise)
            }
            var persists = request.persists
            if request.version == .http1_0 {
                head.version = .http1_0
                // Without a length the body ends with the connection.
                persists = persists && head.headers.contains(name: "content-length")
                if persists { head.headers.replaceOrAdd(name: "connection", value: "keep-alive") }
            }
            if !persists {
                head.headers.replaceOrAdd(name: "connection", value: "close")
                requests[requests.startIndex].persists = false
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            requests.removeFirst()
            guard !request.persists else { return context.write(data, promise: promise) }
            let written = promise ?? context.eventLoop.makePromise()
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}

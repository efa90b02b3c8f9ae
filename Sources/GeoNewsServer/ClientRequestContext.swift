import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic one, plus the address of the
/// client's end of the connection (what the write rate limit counts by) and when that
/// connection closes.
struct ClientRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer of the TCP connection; a proxy in front of the server is one client.
    let remoteAddress: SocketAddress?
    /// Completes when the connection closes, from either end: a request that waits long (an
    /// upload waiting for its turn to be clustered) gives up when no one is left to answer.
    let connectionClosed: EventLoopFuture<Void>

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connectionClosed = source.channel.closeFuture
    }
}

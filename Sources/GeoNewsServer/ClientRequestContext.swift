import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic one, plus the address of the
/// client's end of the connection, the client it stands for, and when that connection closes.
struct ClientRequestContext: ClientAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer of the TCP connection; a proxy in front of the server is one peer.
    let remoteAddress: SocketAddress?
    /// The client as ``ClientAddressMiddleware`` names it, behind a trusted proxy the forwarded
    /// one; `nil` until that middleware has run.
    var clientAddress: String?
    /// Completes when the connection closes, from either end: a request that waits long (an
    /// upload waiting for its turn to be clustered) gives up when no one is left to answer.
    let connectionClosed: EventLoopFuture<Void>

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connectionClosed = source.channel.closeFuture
    }
}

/// A request context that knows its client: the peer's address, or behind a trusted proxy the
/// address it forwards (``TrustedProxies``). The write limit, the access log and the problem
/// log lines use ``client``.
protocol ClientAddressRequestContext: RemoteAddressRequestContext {
    var clientAddress: String? { get set }
}

extension ClientAddressRequestContext {
    /// The client's address: the one ``ClientAddressMiddleware`` set, else the peer's.
    var client: String { clientAddress ?? remoteAddress?.ipAddress ?? "unknown" }
}

import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic one, plus the address of the
/// client's end of the connection (what the write rate limit counts by).
struct ClientRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer of the TCP connection; a proxy in front of the server is one client.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

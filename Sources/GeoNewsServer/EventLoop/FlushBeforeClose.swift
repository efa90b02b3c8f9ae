import NIOCore

/// Lets the bytes already written reach the client before a connection is closed.
///
/// A full close in NIO drops the writes still queued for a socket the client has not drained
/// yet. Hummingbird closes a connection right after writing the last part of an answer when it
/// has been told to quiesce (SIGTERM), so a streamed answer larger than the socket's buffer
/// lost its end. Here a full close first shuts the sending side, which NIO does only once the
/// queued writes are out, and closes the rest after that; a client that stops reading gets
/// `linger` to take them before the close goes ahead regardless.
///
/// It sits after the handlers that cut a connection on purpose (``BodyDeadline``), so that
/// their closes pass it by.
final class FlushBeforeClose: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = NIOAny

    private let linger: TimeAmount
    /// The full close under way, once the sending side is being shut.
    private var closing: EventLoopPromise<Void>?

    init(linger: TimeAmount) {
        self.linger = linger
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, context.channel.isActive else { return context.close(mode: mode, promise: promise) }
        if let closing {
            if let promise { closing.futureResult.cascade(to: promise) }
            return
        }
        let closed = context.eventLoop.makePromise(of: Void.self)
        closing = closed
        if let promise { closed.futureResult.cascade(to: promise) }
        let loop = context.eventLoop.assumeIsolated()
        let cut = loop.scheduleTask(in: linger) { context.close(mode: .all, promise: nil) }
        let drained = context.eventLoop.makePromise(of: Void.self)
        drained.futureResult.assumeIsolated().whenComplete { _ in
            cut.cancel()
            context.close(mode: .all, promise: nil)
        }
        context.channel.closeFuture.assumeIsolated().whenComplete { _ in closed.succeed(()) }
        context.flush()
        context.close(mode: .output, promise: drained)
    }
}

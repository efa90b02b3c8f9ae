import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The deadlines of a connection: each request body must arrive within its own, and once the
/// server stops (SIGTERM) the connection has the shutdown deadline to finish its work.
///
/// A body may take `--body-timeout` seconds, plus one second for every `--body-min-rate`
/// bytes that arrive, so that a large upload over a slow link goes through while a body
/// dripping a byte every few seconds is cut. A body past its deadline fails with 408; one
/// still arriving at the shutdown deadline fails with 503; one whose client goes away fails
/// with 499 (``Problem/clientClosed()``), not with the bare errors of NIO, so that the route
/// that reads it answers that status, logs no server error and records no 500. The failure
/// reaches the route as the body's error; the route's answer is then written when nothing
/// was answered yet, and the connection is closed after it (or, when no answer comes, two
/// seconds later).
///
/// At the shutdown deadline a connection without a body in flight is closed at once, its
/// answer cut if it is still being written: what could finish has had its time.
final class BodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The terms of the deadlines, from the server's options.
    struct Limits: Sendable {
        /// Seconds a whole body may take before any allowance for its size (`--body-timeout`).
        var timeoutSeconds: Int64
        /// Bytes of body that earn one more second (`--body-min-rate`); 0 earns none.
        var bytesPerSecond: Int
        /// Seconds a connection has, once the server stops, to finish (`--shutdown-timeout`).
        var shutdownSeconds: Int64
    }

    /// How long a failed body's answer may take to be written before the connection is cut.
    static let answerGrace = TimeAmount.seconds(2)
    /// How long past the shutdown deadline the server waits for its tasks before cancelling
    /// them: the connections have closed by then, unless a route is still computing.
    static let shutdownMargin = Duration.seconds(5)

    private enum State {
        case noBody
        case body(started: NIODeadline, received: Int)
        /// The body failed; the connection closes once its answer is written.
        case failed
    }

    private let limits: Limits
    private var state = State.noBody
    private var bodyTimer: Scheduled<Void>?
    private var shutdownTimer: Scheduled<Void>?
    private var cutTimer: Scheduled<Void>?

    init(limits: Limits) {
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .failed = state { return }  // the rest of a failed body, read and dropped
        switch unwrapInboundIn(data) {
        case .head(let head):
            if Self.hasBody(head) {
                state = .body(started: .now(), received: 0)
                schedule(context, at: deadline(started: .now(), received: 0))
            }
        case .body(let buffer):
            if case .body(let started, let received) = state {
                state = .body(started: started, received: received + buffer.readableBytes)
            }
        case .end:
            state = .noBody
            bodyTimer?.cancel()
            bodyTimer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .failed = state, case .end = unwrapOutboundIn(data) else {
            return context.write(data, promise: promise)
        }
        // The failed body's answer is out: stop sending, drop what the client still sends
        // for a moment (closing with its bytes unread would reset the connection and could
        // lose the answer), then close.
        let written = promise ?? context.eventLoop.makePromise()
        context.writeAndFlush(data, promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            self.cut(context, in: Self.answerGrace)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch state {
        case .body:
            let malformed = (error as? HTTPParserError).map { $0 != .invalidEOFState } ?? false
            fail(context, malformed ? .malformedBody() : .clientClosed())
        case .failed:
            break
        case .noBody:
            context.fireErrorCaught(error)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            if case .body = state { fail(context, .clientClosed()) }
            if case .failed = state { return context.close(promise: nil) }
        case is ChannelShouldQuiesceEvent:
            let loop = context.eventLoop.assumeIsolated()
            shutdownTimer =
                shutdownTimer ?? loop.scheduleTask(in: .seconds(limits.shutdownSeconds)) { self.shutdownDeadlinePassed(context) }
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A body cut off without an error would otherwise read as a whole, shorter one.
        if case .body = state { fail(context, .clientClosed()) }
        cancelTimers()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
    }

    /// Whether a request head announces a body (RFC 9112 §6.3).
    static func hasBody(_ head: HTTPRequest) -> Bool {
        if let length = head.headerFields[.contentLength] { return length != "0" }
        return head.headerFields[.transferEncoding] != nil
    }

    private func deadline(started: NIODeadline, received: Int) -> NIODeadline {
        let allowance = limits.bytesPerSecond > 0 ? Int64(received / limits.bytesPerSecond) : 0
        return started + .seconds(limits.timeoutSeconds) + .seconds(allowance)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        bodyTimer?.cancel()
        bodyTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { self.bodyTimerFired(context) }
    }

    /// The deadline moves with every byte received, so the timer only checks it and sets
    /// itself again when the body has earned more time.
    private func bodyTimerFired(_ context: ChannelHandlerContext) {
        bodyTimer = nil
        guard case .body(let started, let received) = state else { return }
        let due = deadline(started: started, received: received)
        if due > .now() {
            schedule(context, at: due)
        } else {
            fail(context, .bodyTooSlow(received: received, limits: limits))
        }
    }

    private func shutdownDeadlinePassed(_ context: ChannelHandlerContext) {
        shutdownTimer = nil
        if case .body = state {
            fail(context, .stopping(limits: limits))
        } else {
            context.close(promise: nil)
        }
    }

    /// Ends the body with `problem`, which the route reading it receives as its error.
    private func fail(_ context: ChannelHandlerContext, _ problem: Problem) {
        state = .failed
        bodyTimer?.cancel()
        bodyTimer = nil
        context.fireErrorCaught(problem)
        cut(context, in: Self.answerGrace)
    }

    private func cut(_ context: ChannelHandlerContext, in delay: TimeAmount) {
        cutTimer?.cancel()
        cutTimer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { context.close(promise: nil) }
    }

    private func cancelTimers() {
        for timer in [bodyTimer, shutdownTimer, cutTimer] { timer?.cancel() }
        bodyTimer = nil
        shutdownTimer = nil
        cutTimer = nil
    }
}

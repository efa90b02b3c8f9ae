import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel with one more handler, ``EventLoopAnswers``, placed
/// after the connection-state handler (so idle timeouts, graceful shutdown and request
/// counting see every request) and before the hop to the router's task.
///
/// The pipeline is `HTTP1Channel`'s: NIO's HTTP/1.1 codec, ``ConnectionPersistence`` (which
/// needs the HTTP version), HTTP types, `extraHandlers` (the header timeout, `100 Continue`
/// and the body and shutdown deadlines), ``FlushBeforeClose``, `HTTPConnectionStateHandler`
/// with the idle timeout, then ``EventLoopAnswers`` and the async channel the router reads.
struct GeoNewsHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let idleTimeout: Duration
    let extraHandlers: @Sendable () -> [any RemovableChannelHandler]
    let answers: EventLoopAnswers.Routes

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // the async channel reads requests in order
                withErrorHandling: false,  // Hummingbird answers parse errors
                withOutboundHeaderValidation: false)  // HTTP types validate
            try channel.pipeline.syncOperations.addHandler(ConnectionPersistence())
            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try channel.pipeline.syncOperations.addHandlers(extraHandlers())
            try channel.pipeline.syncOperations.addHandler(FlushBeforeClose(linger: .seconds(idleTimeout.components.seconds)))
            try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            try channel.pipeline.syncOperations.addHandler(EventLoopAnswers(routes: answers))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

import Dispatch
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Answers the ``PlainRoutes`` (`GET /v1/resolve` without headlines, `GET /v1/clusters`) on
/// the connection's event loop, where the request was read, instead of handing each one to a
/// Swift task and back: both are a few microseconds of work, and the hop cost more than the
/// answer.
///
/// The answers are the table's, the same the router gives (304 to a matching `If-None-Match`,
/// gzip when accepted, the problem JSON of a bad query), with the same request metrics
/// (``RequestMetrics``) and the same access-log line (``AccessLog``, the client named by
/// ``TrustedProxies``). Anything else goes on to the router untouched: other routes and
/// methods, a query that needs the router (headlines), `Connection`, a CORS `Origin`, a request
/// body, and every request while one the router holds is unanswered, so that answers leave in
/// the order asked.
///
/// Every response of the connection leaves through this handler, the router's included, and
/// it gives each one the same `Date` and `Server` (``ResponseFraming``): the one place they
/// are written.
final class EventLoopAnswers: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What every connection's handler shares: the table, the server's name, and the access
    /// log with the proxies that name its clients.
    final class Routes: Sendable {
        let table: PlainRoutes
        let serverName: String
        let corsOrigin: String?
        let proxies: TrustedProxies
        let accessLog: AccessLog?

        init(table: PlainRoutes, serverName: String, corsOrigin: String?, proxies: TrustedProxies, accessLog: AccessLog?) {
            self.table = table
            self.serverName = serverName
            self.corsOrigin = corsOrigin
            self.proxies = proxies
            self.accessLog = accessLog
        }

        /// The answer to `head` when its route is in the table and nothing about it needs the
        /// router, with what to record once it is written.
        func answer(_ head: HTTPRequest) -> (PlainAnswer, Recording)? {
            guard head.method == .get, let path = head.path else { return nil }
            let fields = head.headerFields
            guard fields[.connection] == nil, fields[.expect] == nil,
                fields[.transferEncoding] == nil, (fields[.contentLength] ?? "0") == "0",
                corsOrigin == nil || fields[.origin] == nil
            else { return nil }
            let uri = URI(path)
            guard let route = table.route(uri.path) else { return nil }
            do {
                guard let answer = try route.answer(QueryParameters(uri), fields),
                    let series = route.metrics.answered(answer.status)
                else { return nil }
                return (answer, .answered(series))
            } catch let problem as Problem {
                return (problem.plainAnswer, .problem(route.metrics, problem.status))
            } catch {
                // Not a refusal of the query: the router logs it and answers 500.
                return nil
            }
        }
    }

    /// What a request answered here records in the metrics.
    enum Recording {
        case answered(RequestMetrics.Series)
        case problem(RequestMetrics.Route, HTTPResponse.Status)

        func record(since started: UInt64) {
            switch self {
            case .answered(let series): series.recordAnswer(nanoseconds: DispatchTime.now().uptimeNanoseconds &- started)
            case .problem(let route, let status): route.recordProblem(status)
            }
        }
    }

    private let routes: Routes
    /// Requests passed to the router whose response has not ended.
    private var routerRequests = 0
    /// The answer to the request being read, written once its end arrives, and its head when
    /// there is an access log to write.
    private var pending: (answer: PlainAnswer, recording: Recording, started: UInt64, head: HTTPRequest?)?
    private var framing: ResponseFraming

    init(routes: Routes) {
        self.routes = routes
        framing = ResponseFraming(serverName: routes.serverName)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if routerRequests == 0, let (answer, recording) = routes.answer(head) {
                pending = (answer, recording, DispatchTime.now().uptimeNanoseconds, routes.accessLog == nil ? nil : head)
                return
            }
            routerRequests += 1
        case .body:
            if pending != nil { return }
        case .end:
            if let (answer, recording, started, head) = pending {
                pending = nil
                write(answer, context: context)
                recording.record(since: started)
                if let head, let log = routes.accessLog { self.log(head, answer, started: started, to: log, context: context) }
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// The router's response parts: each head framed as this handler's own answers are.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            framing.frame(&head)
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            routerRequests = max(0, routerRequests - 1)
            context.write(data, promise: promise)
        }
    }

    private func log(_ head: HTTPRequest, _ answer: PlainAnswer, started: UInt64, to log: AccessLog, context: ChannelHandlerContext) {
        let peer = context.channel.remoteAddress?.ipAddress ?? "unknown"
        log.record(
            client: routes.proxies.client(peer: peer, headers: head.headerFields), method: head.method.rawValue,
            target: head.path ?? "", status: answer.status.code, bytes: answer.hasNoBody ? 0 : answer.body.readableBytes,
            referer: head.headerFields[.referer], userAgent: head.headerFields[.userAgent],
            seconds: Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9)
    }

    private func write(_ answer: PlainAnswer, context: ChannelHandlerContext) {
        var fields = answer.fields(reserving: ResponseFraming.fieldCount)
        framing.append(to: &fields)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: fields))), promise: nil)
        if !answer.hasNoBody { context.write(wrapOutboundOut(.body(answer.body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

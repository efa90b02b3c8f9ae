#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Metrics
import NIOCore
import NIOHTTPTypes

/// Answers `GET /v1/resolve` (without headlines) and `GET /v1/clusters` on the connection's
/// event loop, where the request was read, instead of handing each one to a Swift task and
/// back: both are a few microseconds of work, and the hop cost more than the answer.
///
/// The answers are the routes' own (``ResolveRoutes/plainAnswer(_:state:fields:)``,
/// ``ClusterRoutes/plainAnswer(_:state:fields:)``: 304 to a matching `If-None-Match`, gzip
/// when accepted), with the headers the application adds (`Date`, `Server`) and the same
/// request metrics, under the same status. Anything else goes on to the router untouched:
/// other routes and methods, a query the route refuses (its problem JSON comes from the
/// router), `Connection`, a CORS `Origin`, a request body, and every request while one the
/// router holds is unanswered, so that answers leave in the order asked.
final class EventLoopAnswers: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What every connection's handler shares: the state, and the metrics it records.
    final class Routes: Sendable {
        let state: ServerState
        let serverName: String
        private let resolveMetrics: [HTTPResponse.Status: (Counter, Metrics.Timer)]
        private let clusterMetrics: [HTTPResponse.Status: (Counter, Metrics.Timer)]

        init(state: ServerState, serverName: String) {
            self.state = state
            self.serverName = serverName
            // The labels Hummingbird's MetricsMiddleware gives the same requests, for the
            // statuses answered here.
            func metrics(_ route: String) -> [HTTPResponse.Status: (Counter, Metrics.Timer)] {
                var byStatus: [HTTPResponse.Status: (Counter, Metrics.Timer)] = [:]
                for status in [HTTPResponse.Status.ok, .notModified] {
                    let dimensions = [("http.route", route), ("http.request.method", "GET"), ("http.response.status_code", "\(status.code)")]
                    byStatus[status] = (Counter(label: "hb.requests", dimensions: dimensions),
                                        Metrics.Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds))
                }
                return byStatus
            }
            resolveMetrics = metrics("/v1/resolve")
            clusterMetrics = metrics("/v1/clusters")
        }

        /// The answer to `head` when it is one of the two and nothing about it needs the
        /// router, with the metrics to record once it is written.
        func answer(_ head: HTTPRequest) -> (PlainAnswer, (Counter, Metrics.Timer))? {
            guard head.method == .get, let path = head.path else { return nil }
            let fields = head.headerFields
            guard fields[.connection] == nil, fields[.expect] == nil,
                  fields[.transferEncoding] == nil, (fields[.contentLength] ?? "0") == "0",
                  state.configuration.corsOrigin == nil || fields[.origin] == nil else { return nil }
            let uri = URI(path)
            let answer: PlainAnswer?
            let metrics: [HTTPResponse.Status: (Counter, Metrics.Timer)]
            switch uri.path {
            case "/v1/resolve":
                answer = (try? ResolveRoutes.plainAnswer(QueryParameters(uri), state: state, fields: fields)).flatMap { $0 }
                metrics = resolveMetrics
            case "/v1/clusters":
                answer = try? ClusterRoutes.plainAnswer(QueryParameters(uri), state: state, fields: fields)
                metrics = clusterMetrics
            default:
                return nil
            }
            guard let answer, let recorded = metrics[answer.status] else { return nil }
            return (answer, recorded)
        }
    }

    private let routes: Routes
    /// Requests passed to the router whose response has not ended.
    private var routerRequests = 0
    /// The answer to the request being read, written once its end arrives.
    private var pending: (answer: PlainAnswer, metrics: (Counter, Metrics.Timer), started: UInt64)?
    private var date = HTTPDate()

    init(routes: Routes) {
        self.routes = routes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if routerRequests == 0, let (answer, metrics) = routes.answer(head) {
                pending = (answer, metrics, DispatchTime.now().uptimeNanoseconds)
                return
            }
            routerRequests += 1
        case .body:
            if pending != nil { return }
        case .end:
            if let (answer, metrics, started) = pending {
                pending = nil
                write(answer, context: context)
                metrics.0.increment()
                metrics.1.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routerRequests = max(0, routerRequests - 1) }
        context.write(data, promise: promise)
    }

    private func write(_ answer: PlainAnswer, context: ChannelHandlerContext) {
        var fields = answer.headers
        if !answer.hasNoBody { fields[.contentLength] = String(answer.body.readableBytes) }
        fields[.date] = date.now()
        fields[.server] = routes.serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: fields))), promise: nil)
        if !answer.hasNoBody { context.write(wrapOutboundOut(.body(answer.body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// The `Date` header's text (RFC 9110 §5.6.7), formatted once a second.
struct HTTPDate {
    private var second = 0
    private var text = ""

    mutating func now() -> String {
        let t = time(nil)
        if t != second || text.isEmpty {
            second = t
            var parts = tm()
            var seconds = t
            gmtime_r(&seconds, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        }
        return text
    }
}

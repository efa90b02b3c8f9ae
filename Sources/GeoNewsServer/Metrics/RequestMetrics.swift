import Dispatch
import Hummingbird
import Metrics
import Synchronization

/// The request metrics of every route, whichever door answers it: the one place that names
/// the series and their labels. ``RequestMetricsMiddleware`` records through it for the
/// router, and ``EventLoopAnswers`` for the requests it answers itself, so that `/metrics`
/// counts a request the same whichever door answered it.
///
/// Each route, method and status has three series, made together: `hb.requests` and
/// `http.server.request.duration` for an answer, and `hb.requests` and `hb.request.errors`
/// (no duration) for a request whose route threw. A series made and not yet used reads zero,
/// so `/metrics` lists the same series whichever door answered. ``PrometheusNaming`` gives
/// the labels their Prometheus names.
final class RequestMetrics: Sendable {
    /// The series of one route, method and status.
    struct Series: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
        let errors: Counter

        fileprivate init(_ key: Key) {
            let dimensions = [
                ("http.route", key.route), ("http.request.method", key.method.rawValue),
                ("http.response.status_code", "\(key.status.code)"),
            ]
            requests = Counter(label: "hb.requests", dimensions: dimensions)
            duration = Metrics.Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            errors = Counter(
                label: "hb.request.errors",
                dimensions: [
                    ("http.route", key.route), ("http.request.method", key.method.rawValue), ("error.type", "\(key.status.code)"),
                ])
        }

        /// One more request answered, `nanoseconds` after its head arrived.
        func recordAnswer(nanoseconds: UInt64) {
            requests.increment()
            duration.recordNanoseconds(Int64(clamping: nanoseconds))
        }

        /// One more request whose route threw (answered with a problem).
        func recordError() {
            requests.increment()
            errors.increment()
        }
    }

    fileprivate struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    private let series = Mutex<[Key: Series]>([:])
    private let active = Mutex<[HTTPRequest.Method: Meter]>([:])

    /// The series of `route` (the router's path pattern, such as `/v1/countries/{iso2}`),
    /// `method` and `status`, made at first use.
    func series(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> Series {
        let key = Key(route: route, method: method, status: status)
        return series.withLock { made in
            if let kept = made[key] { return kept }
            let new = Series(key)
            made[key] = new
            return new
        }
    }

    /// The requests being answered now with `method`.
    func activeRequests(_ method: HTTPRequest.Method) -> Meter {
        active.withLock { made in
            if let kept = made[method] { return kept }
            let new = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            made[method] = new
            return new
        }
    }

    /// The series of one route answered on the event loop (always `GET`): those of the
    /// statuses a plain answer has, by far the most frequent, looked up once at start.
    struct Route: Sendable {
        let route: String
        let metrics: RequestMetrics
        private let ok: Series
        private let notModified: Series

        init(_ route: String, in metrics: RequestMetrics) {
            self.route = route
            self.metrics = metrics
            ok = metrics.series(route: route, method: .get, status: .ok)
            notModified = metrics.series(route: route, method: .get, status: .notModified)
        }

        /// The series of an answer with `status`, when it is one of a plain answer's (200, 304).
        func answered(_ status: HTTPResponse.Status) -> Series? {
            switch status {
            case .ok: ok
            case .notModified: notModified
            default: nil
            }
        }

        /// Records a request answered with the problem `status` (400, 404): rare, so its
        /// series is looked up each time.
        func recordProblem(_ status: HTTPResponse.Status) {
            metrics.series(route: route, method: .get, status: status).recordError()
        }
    }
}

/// Records every request the router answers in ``RequestMetrics``: its route's pattern,
/// method and status, the time to its last byte, and the requests in flight. A route that
/// throws counts as an error under the status its error carries (500 for any other).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: RequestMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let active = metrics.activeRequests(request.method)
        active.increment()
        do {
            var response = try await next(request, context)
            let series = metrics.series(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status)
            // Recorded once the body is written, or fails to be.
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer {
                    series.recordAnswer(nanoseconds: DispatchTime.now().uptimeNanoseconds &- started)
                    active.decrement()
                }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.series(route: context.endpointPath ?? "NotFound", method: request.method, status: status).recordError()
            active.decrement()
            throw error
        }
    }
}

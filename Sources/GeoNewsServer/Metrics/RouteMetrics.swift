import Hummingbird
import Metrics

/// The request metrics of one route answered on the event loop, under the labels Hummingbird's
/// `MetricsMiddleware` gives the same requests when the router answers them, so that
/// `/metrics` counts a request the same whichever door answered it.
///
/// Not the middleware itself: it is an async step around the router's `next`, which a channel
/// handler cannot await, and it keeps its counters in a cache internal to Hummingbird. So the
/// labels are built here, once per route and status: `hb.requests` and
/// `http.server.request.duration` for an answer; `hb.requests` and `hb.request.errors` (and no
/// duration, as the middleware records none for a thrown error) for a problem. Like the
/// middleware, each route and status registers all three series (an unused one at zero), so
/// that `/metrics` lists the same series whichever door answered.
final class RouteMetrics: Sendable {
    let route: String
    /// The statuses a plain answer has, by far the most frequent: made at start.
    private let answered: [HTTPResponse.Status: Answered]

    /// What an answer records: one more request, and its duration.
    struct Answered: Sendable {
        let requests: Counter
        let duration: Metrics.Timer

        func record(nanoseconds: UInt64) {
            requests.increment()
            duration.recordNanoseconds(Int64(clamping: nanoseconds))
        }
    }

    init(route: String) {
        self.route = route
        var answered: [HTTPResponse.Status: Answered] = [:]
        for status in [HTTPResponse.Status.ok, .notModified] {
            let dimensions = Self.dimensions(route, status)
            _ = Self.errors(route, status)
            answered[status] = Answered(
                requests: Counter(label: "hb.requests", dimensions: dimensions),
                duration: Metrics.Timer(
                    label: "http.server.request.duration", dimensions: dimensions,
                    preferredDisplayUnit: .seconds))
        }
        self.answered = answered
    }

    /// The recorder of an answer with `status` (one of a plain answer's: 200, 304).
    func answered(_ status: HTTPResponse.Status) -> Answered? { answered[status] }

    /// Records a request answered with the problem `status` (400, 404): rare, so its
    /// counters are looked up in the registry each time.
    func recordProblem(_ status: HTTPResponse.Status) {
        let dimensions = Self.dimensions(route, status)
        Counter(label: "hb.requests", dimensions: dimensions).increment()
        Self.errors(route, status).increment()
        _ = Metrics.Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
    }

    private static func errors(_ route: String, _ status: HTTPResponse.Status) -> Counter {
        Counter(
            label: "hb.request.errors",
            dimensions: [
                ("http.route", route), ("http.request.method", "GET"), ("error.type", "\(status.code)"),
            ])
    }

    private static func dimensions(_ route: String, _ status: HTTPResponse.Status) -> [(String, String)] {
        [("http.route", route), ("http.request.method", "GET"), ("http.response.status_code", "\(status.code)")]
    }
}

import Foundation
import GeoNewsStore
import Hummingbird

/// An RFC 9457 problem: the body of every error the API answers, as
/// `application/problem+json`.
///
/// `detail` names the parameter and the value that caused it; it never carries a stack trace,
/// a token or an API key.
public struct Problem: Error, Sendable, HTTPResponseError {
    /// The HTTP status (400, 401, 404, 405, 413, 415, 500, 503).
    public var status: HTTPResponse.Status
    /// A short, stable summary of the kind of problem.
    public var title: String
    /// What was wrong with this request, naming the parameter and value.
    public var detail: String
    /// A URI identifying the kind of problem; `about:blank` when the status says it all.
    public var type: String
    /// Extra headers (`Allow` on 405, `WWW-Authenticate` on 401, `Retry-After` on 503).
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, title: String? = nil, detail: String,
        type: String = "about:blank", headers: HTTPFields = [:]
    ) {
        self.status = status
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.type = type
        self.headers = headers
    }

    /// The problem's JSON object: `type`, `title`, `status`, `detail`.
    public var json: Data {
        let object: [String: Any] = ["type": type, "title": title, "status": status.code, "detail": detail]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"status":500,"title":"Internal Server Error","type":"about:blank"}"#.utf8)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        plainAnswer.response
    }

    /// The whole answer, as the router and ``EventLoopAnswers`` both write it.
    var plainAnswer: PlainAnswer {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        fields[.cacheControl] = "no-store"
        return PlainAnswer(status: status, headers: fields, body: ByteBuffer(data: json))
    }
}

extension Problem {
    /// 400 for a query parameter or field whose value cannot be used.
    static func badValue(_ parameter: String, _ detail: String) -> Problem {
        Problem(
            .badRequest, title: "Invalid parameter", detail: "\(parameter): \(detail)",
            type: "https://geonews.invalid/problems/invalid-parameter")
    }

    /// 400 for a required query parameter that is absent.
    static func missing(_ parameter: String, _ hint: String = "") -> Problem {
        Problem(
            .badRequest, title: "Missing parameter",
            detail: "the query parameter '\(parameter)' is required\(hint.isEmpty ? "" : "; \(hint)")",
            type: "https://geonews.invalid/problems/missing-parameter")
    }

    /// Seconds a client is asked to wait (`Retry-After`) when the store is out of reach.
    static let storeRetrySeconds = 5

    /// 503 with `Retry-After` when the store is out of reach (PostgreSQL down, or past a
    /// call's deadline), else 500; the store's own message is not shown.
    static func store(_ error: StoreError) -> Problem {
        if case .unavailable = error {
            return Problem(
                .serviceUnavailable, title: "Store unavailable",
                detail: "the store that keeps users, favourites, settings and datasets does not answer; retry in a few seconds",
                type: "https://geonews.invalid/problems/store-unavailable",
                headers: [.retryAfter: "\(storeRetrySeconds)"])
        }
        return Problem(.internalServerError, detail: "the store failed to answer this request")
    }

    /// 404 for an id that names nothing.
    static func notFound(_ what: String, _ id: String) -> Problem {
        Problem(.notFound, detail: "no \(what) '\(id)'")
    }
}

import Hummingbird

/// The problems of a request body that fails as it arrives, raised by ``BodyDeadline`` on the
/// connection and thrown to the route that reads the body.
extension Problem {
    /// 499, nginx's "Client Closed Request". It is never sent, as nobody is left to read it, but
    /// it's the status under which metrics and logs count an aborted upload, apart from the
    /// server's own 500s.
    static let clientClosedStatus = HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")

    /// The client closed its connection, or reset it, before its request body ended.
    static func clientClosed() -> Problem {
        Problem(clientClosedStatus, detail: "the client closed the connection before its request body ended")
    }

    /// 408: the body took longer than its deadline.
    ///
    /// - Parameters:
    ///   - received: the bytes of the body that did arrive.
    ///   - limits: the deadline's terms.
    static func bodyTooSlow(received: Int, limits: BodyDeadline.Limits) -> Problem {
        let rate =
            limits.bytesPerSecond > 0
            ? " plus one second for every \(limits.bytesPerSecond) bytes received (--body-min-rate)" : ""
        return Problem(
            .requestTimeout,
            detail: "the request body did not arrive in time: \(received) bytes came; a body may take "
                + "\(limits.timeoutSeconds) seconds (--body-timeout)\(rate)",
            headers: [.connection: "close"])
    }

    /// 503: the server is stopping and the body was still arriving at its shutdown deadline.
    static func stopping(limits: BodyDeadline.Limits) -> Problem {
        Problem(
            .serviceUnavailable,
            detail:
                "the server is stopping, and the request body had not arrived \(limits.shutdownSeconds) seconds after it began to (--shutdown-timeout)",
            headers: [.connection: "close"])
    }

    /// 400: the body's framing is broken (a bad chunk size, say).
    static func malformedBody() -> Problem {
        Problem(
            .badRequest, title: "Malformed body", detail: "the request body's framing is malformed (chunked encoding or length)",
            headers: [.connection: "close"])
    }
}

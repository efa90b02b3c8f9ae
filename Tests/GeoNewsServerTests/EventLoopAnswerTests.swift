import Foundation
import XCTest

/// `GET /v1/resolve` and `GET /v1/clusters` are answered on the event loop unless something
/// about the request needs the router. Raw HTTP/1.1 on one connection decides which path a
/// request takes: any `Connection` header sends it to the router.
final class EventLoopAnswerTests: XCTestCase {
    /// One response of a stream: status line, headers by lowercased name, body.
    struct RawResponse {
        let status: String
        let headers: [String: String]
        /// Every field's name, lowercased, in the order sent: repeats included.
        let fieldNames: [String]
        let body: String
    }

    /// Splits what a server sent on one connection into responses by their Content-Length.
    static func responses(_ bytes: Data) -> [RawResponse] {
        var rest = Substring(String(decoding: bytes, as: UTF8.self))
        var out: [RawResponse] = []
        while let end = rest.range(of: "\r\n\r\n") {
            let lines = rest[..<end.lowerBound].components(separatedBy: "\r\n")
            var headers: [String: String] = [:]
            var names: [String] = []
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                names.append(line[..<colon].lowercased())
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            let bodyStart = end.upperBound
            let bodyEnd = rest.utf8.index(bodyStart, offsetBy: length, limitedBy: rest.utf8.endIndex) ?? rest.endIndex
            out.append(
                RawResponse(status: lines[0], headers: headers, fieldNames: names, body: String(rest[bodyStart..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return out
    }

    /// Sends `requests` in one write on one connection, the last asking to close, and returns
    /// the responses.
    private func exchange(_ server: ServerProcess, _ requests: [String]) throws -> [RawResponse] {
        let connection = try LoopbackConnection(port: server.port)
        var text = ""
        for (i, request) in requests.enumerated() {
            text += request + "\r\nHost: 127.0.0.1\r\n" + (i == requests.count - 1 ? "Connection: close\r\n" : "") + "\r\n"
        }
        try connection.send(Data(text.utf8))
        return Self.responses(connection.receiveAllBytes())
    }

    func testTheEventLoopAnswerIsTheRoutersByteForByte() throws {
        let server = try ServerProcess()
        for path in [
            "/v1/resolve?lat=48.8566&lon=2.3522", "/v1/resolve?lat=-33.9249&lon=18.4241&lang=fr",
            "/v1/clusters?altitude=15000km", "/v1/clusters?bbox=-10,35,30,60&zoom=4",
        ] {
            // The first two on the event loop, the third (Connection: keep-alive) through the router.
            let answers = try exchange(
                server,
                [
                    "GET \(path) HTTP/1.1", "GET \(path) HTTP/1.1",
                    "GET \(path) HTTP/1.1\r\nConnection: keep-alive", "GET /healthz HTTP/1.1",
                ])
            XCTAssertEqual(answers.count, 4, path)
            guard answers.count == 4 else { continue }
            let (fast, router) = (answers[0], answers[2])
            XCTAssertEqual(fast.status, "HTTP/1.1 200 OK", path)
            XCTAssertEqual(router.status, "HTTP/1.1 200 OK", path)
            XCTAssertEqual(fast.body, router.body, path)
            XCTAssertEqual(fast.body, answers[1].body, path)
            for name in ["content-type", "content-length", "etag", "server"] {
                XCTAssertEqual(fast.headers[name], router.headers[name], "\(path): \(name)")
            }
            XCTAssertEqual(fast.headers["server"], "geonews")
            XCTAssertNotNil(fast.headers["date"])
            XCTAssertTrue(fast.headers["cache-control"]?.hasPrefix("public, max-age=") ?? false, path)
            XCTAssertEqual(fast.headers.keys.sorted(), router.headers.keys.sorted(), path)
        }
    }

    /// `Date` and `Server` are written in one place for both doors: every response has each
    /// once, with a date of now in RFC 9110's form, and `Content-Length` once.
    func testEveryResponseIsFramedOnceWhicheverDoorAnswers() throws {
        let server = try ServerProcess()
        let requests = [
            "GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1",  // the event loop
            "GET /v1/resolve?lat=abc&lon=2 HTTP/1.1",  // the event loop's problem
            "GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1\r\nConnection: keep-alive",  // the router
            "GET /v1/countries/fr HTTP/1.1",  // the router, gzip middleware's route
            "GET /v1/countries/zz HTTP/1.1",  // the router's problem
            "GET /no-such-path HTTP/1.1",  // no route
            "DELETE /v1/resolve HTTP/1.1",  // no such method
            "GET /healthz HTTP/1.1",
        ]
        let answers = try exchange(server, requests)
        XCTAssertEqual(
            answers.map { String($0.status.prefix(12)) },
            [
                "HTTP/1.1 200", "HTTP/1.1 400", "HTTP/1.1 200", "HTTP/1.1 200", "HTTP/1.1 404", "HTTP/1.1 404", "HTTP/1.1 405",
                "HTTP/1.1 200",
            ])
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for (request, answer) in zip(requests, answers) {
            for name in ["date", "server", "content-length"] {
                XCTAssertEqual(answer.fieldNames.filter { $0 == name }.count, 1, "\(request): \(name) in \(answer.fieldNames)")
            }
            XCTAssertEqual(answer.headers["server"], "geonews", request)
            let date = try XCTUnwrap(answer.headers["date"].flatMap(format.date(from:)), "\(request): \(answer.headers)")
            XCTAssertLessThan(abs(date.timeIntervalSinceNow), 60, request)
        }
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try ServerProcess()
        // Router, event loop, router, event loop, problem (router), event loop, router.
        let answers = try exchange(
            server,
            [
                "GET /v1/countries/fr HTTP/1.1",
                "GET /v1/resolve?lat=52.52&lon=13.405 HTTP/1.1",
                "GET /v1/countries/jp HTTP/1.1",
                "GET /v1/clusters?altitude=15000km HTTP/1.1",
                "GET /v1/resolve?lat=abc&lon=2 HTTP/1.1",
                "GET /v1/resolve?lat=35.68&lon=139.69 HTTP/1.1",
                "GET /healthz HTTP/1.1",
            ])
        XCTAssertEqual(
            answers.map(\.status),
            [
                "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK",
                "HTTP/1.1 400 Bad Request", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK",
            ])
        guard answers.count == 7 else { return }
        XCTAssertTrue(answers[0].body.contains(#""iso2":"FR""#), answers[0].body)
        XCTAssertTrue(answers[1].body.contains(#""iso2":"DE""#), answers[1].body)
        XCTAssertTrue(answers[2].body.contains(#""iso2":"JP""#), answers[2].body)
        XCTAssertTrue(answers[3].body.hasPrefix(#"{"type":"FeatureCollection""#), answers[3].body)
        XCTAssertEqual(answers[4].headers["content-type"], "application/problem+json")
        XCTAssertTrue(answers[4].body.contains("'abc'"), answers[4].body)
        XCTAssertTrue(answers[5].body.contains("Asia/Tokyo"), answers[5].body)
        XCTAssertTrue(answers[6].body.contains(#""status":"ok""#), answers[6].body)
    }

    func testEventLoopAnswersAreCountedInTheMetrics() async throws {
        let server = try ServerProcess()
        _ = try exchange(
            server,
            Array(repeating: "GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1", count: 3)
                + Array(repeating: "GET /v1/clusters?altitude=15000km HTTP/1.1", count: 2) + ["GET /healthz HTTP/1.1"])
        let metrics = try await server.get("/metrics").text
        XCTAssertTrue(
            metrics.contains(
                #"http_server_requests_total{http_route="/v1/resolve",http_request_method="GET",http_response_status_code="200"} 3"#),
            metrics)
        XCTAssertTrue(
            metrics.contains(
                #"http_server_requests_total{http_route="/v1/clusters",http_request_method="GET",http_response_status_code="200"} 2"#),
            metrics)
    }

    func testConditionalRequestsAre304AndHeadRequestsGoToTheRouter() throws {
        let server = try ServerProcess()
        let first = try exchange(server, ["GET /v1/clusters?altitude=15000km HTTP/1.1"])
        let tag = try XCTUnwrap(first.first?.headers["etag"])
        let get = try XCTUnwrap(try exchange(server, ["GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1"]).first)
        let answers = try exchange(
            server,
            [
                "GET /v1/clusters?altitude=15000km HTTP/1.1\r\nIf-None-Match: \(tag)",
                "HEAD /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1",
            ])
        XCTAssertEqual(answers.first?.status, "HTTP/1.1 304 Not Modified")
        XCTAssertEqual(answers.first?.headers["etag"], tag)
        // HEAD: the router's headers and no body.
        XCTAssertEqual(answers.last?.status, "HTTP/1.1 200 OK")
        XCTAssertEqual(answers.last?.headers["content-type"], "application/json")
        XCTAssertEqual(get.headers["content-length"], String(get.body.utf8.count))
        XCTAssertGreaterThan(get.body.utf8.count, 300, get.body)
        XCTAssertEqual(answers.last?.headers["content-length"], get.headers["content-length"], "the GET's length")
        XCTAssertEqual(answers.last?.body, "")
    }
}

import Foundation
import HTTPTypes
import NIOCore
import XCTest

@testable import GeoNewsServer

/// Whole answers kept by query string: used only for the source they were made from, apart per
/// encoding, bounded, and on the server the same bytes and headers as an answer made afresh.
final class QueryAnswerMemoTests: XCTestCase {
    private func answer(_ text: String, status: HTTPResponse.Status = .ok) -> PlainAnswer {
        PlainAnswer(status: status, headers: [.contentType: "application/geo+json"], body: ByteBuffer(string: text))
    }

    /// The kept answer's body, `nil` when none was found or a 304 was.
    private func body<S>(_ memo: QueryAnswerMemo<S>, _ key: QueryAnswerMemo<S>.Key, _ source: S) -> String? {
        guard case .answer(let kept)? = memo.answer(key, source: source) else { return nil }
        return String(buffer: kept.body)
    }

    func testAnAnswerIsUsedOnlyForTheSourceAndEncodingItWasMadeFor() {
        let memo = QueryAnswerMemo<String>()
        let plain = QueryAnswerMemo<String>.Key(query: "altitude=15000km", gzip: false)
        let gzip = QueryAnswerMemo<String>.Key(query: "altitude=15000km", gzip: true)
        memo.store(answer("v1"), tag: "\"1\"", for: plain, source: "version-1")
        XCTAssertEqual(body(memo, plain, "version-1"), "v1")
        XCTAssertNil(memo.answer(plain, source: "version-2"), "an answer from an older dataset version")
        XCTAssertNil(memo.answer(gzip, source: "version-1"), "the gzip form is kept apart")
        XCTAssertNil(memo.answer(.init(query: "altitude=15000km&x=1", gzip: false), source: "version-1"))
        memo.store(answer("v2"), tag: "\"2\"", for: plain, source: "version-2")
        XCTAssertEqual(body(memo, plain, "version-2"), "v2")
        XCTAssertNil(memo.answer(plain, source: "version-1"))
    }

    func testOnlyOKAnswersSmallEnoughAreKeptAndAFullMemoEmpties() {
        let memo = QueryAnswerMemo<Int>(maximumCount: 3, maximumBytes: 1600)
        memo.store(answer("{}", status: .notModified), tag: "\"a\"", for: .init(query: "a", gzip: false), source: 1)
        XCTAssertEqual(memo.count, 0, "only 200s")
        memo.store(answer(String(repeating: "x", count: 101)), tag: "\"b\"", for: .init(query: "b", gzip: false), source: 1)
        XCTAssertEqual(memo.count, 0, "larger than a sixteenth of the bytes")
        for query in ["c", "d", "e"] {
            memo.store(answer(query), tag: "\"\(query)\"", for: .init(query: query[...], gzip: false), source: 1)
        }
        XCTAssertEqual(memo.count, 3)
        memo.store(answer("f"), tag: "\"f\"", for: .init(query: "f", gzip: false), source: 1)
        XCTAssertEqual(memo.count, 1, "full: emptied, then the new answer kept")
        XCTAssertNotNil(memo.answer(.init(query: "f", gzip: false), source: 1))
        XCTAssertNil(memo.answer(.init(query: "c", gzip: false), source: 1))
    }

    /// The server keeps one cache: each route's memo sees only its own answers, and encoded
    /// bodies by tag share the same bound.
    func testRoutesShareOneCacheAndOneBound() {
        let cache = AnswerCache(maximumCount: 4, maximumBytes: 16_000)
        let clusters = QueryAnswerMemo<String>(route: "/v1/clusters", in: cache)
        let resolve = QueryAnswerMemo<String>(route: "/v1/resolve", in: cache)
        let key = QueryAnswerMemo<String>.Key(query: "lat=1&lon=2", gzip: false)
        clusters.store(answer("clusters"), tag: "\"c\"", for: key, source: "s")
        XCTAssertNil(resolve.answer(key, source: "s"), "another route's answer to the same query")
        resolve.store(answer("resolve"), tag: "\"r\"", for: key, source: "s")
        XCTAssertEqual(body(clusters, key, "s"), "clusters")
        XCTAssertEqual(body(resolve, key, "s"), "resolve")
        XCTAssertEqual(String(buffer: cache.answer("\"t1\"") { ByteBuffer(string: "tile") }), "tile")
        XCTAssertEqual(String(buffer: cache.answer("\"t1\"") { ByteBuffer(string: "encoded again") }), "tile", "kept by tag")
        XCTAssertEqual(cache.count, 3)
        _ = cache.answer("\"t2\"") { ByteBuffer(string: "tile 2") }
        _ = cache.answer("\"t3\"") { ByteBuffer(string: "tile 3") }
        XCTAssertEqual(cache.count, 1, "full: the memos' answers went with the bodies")
        XCTAssertNil(clusters.answer(key, source: "s"))
        XCTAssertNil(resolve.answer(key, source: "s"))
    }

    /// A request whose `If-None-Match` names the kept answer's tag, its gzip form, or `*`, or
    /// names it weakly, is told which tag matched; any other gets the kept answer.
    func testARevalidationThatNamesTheKeptTagIsToldSo() {
        let memo = QueryAnswerMemo<Int>()
        let key = QueryAnswerMemo<Int>.Key(query: "altitude=15000km", gzip: true)
        let tag = "\"00112233aabbccdd\""
        memo.store(answer("kept"), tag: tag, for: key, source: 7)
        let gzipTag = AnswerEncoding.gzipTag(tag)
        for (ifNoneMatch, matched) in [
            (tag, tag), (gzipTag, gzipTag), ("W/\(tag)", tag), ("\"other\", \(gzipTag)", gzipTag), ("*", tag),
        ] {
            guard case .notModified(let t)? = memo.answer(key, source: 7, ifNoneMatch: ifNoneMatch) else {
                XCTFail("\(ifNoneMatch): no 304")
                continue
            }
            XCTAssertEqual(t, matched, ifNoneMatch)
        }
        guard case .answer(let kept)? = memo.answer(key, source: 7, ifNoneMatch: "\"other\"") else {
            return XCTFail("a tag that does not match gets the kept answer")
        }
        XCTAssertEqual(String(buffer: kept.body), "kept")
        XCTAssertNil(memo.answer(key, source: 8, ifNoneMatch: tag), "not for another source")
    }

    func testCacheControlCountsDownToTheHalfHourAndIsClamped() {
        XCTAssertEqual(ResolveRoutes.cacheControl(secondsValid: 1800), "public, max-age=1800")
        XCTAssertEqual(ResolveRoutes.cacheControl(secondsValid: 17), "public, max-age=17")
        XCTAssertEqual(ResolveRoutes.cacheControl(secondsValid: 5000), "public, max-age=1800")
        XCTAssertEqual(ResolveRoutes.cacheControl(secondsValid: -3), "public, max-age=0")
    }

    /// The answer to `request`, read on the event loop: a second request on the connection asks
    /// to close it (a request with `Connection` goes to the router).
    private func exchangeOne(_ server: ServerProcess, _ request: String) throws -> EventLoopAnswerTests.RawResponse {
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(
            Data((request + "\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").utf8))
        return try XCTUnwrap(EventLoopAnswerTests.responses(connection.receiveAllBytes()).first)
    }

    /// A repeated query is answered from the memo with the bytes and header fields of the first
    /// answer, and `Cache-Control` still counts down; the gzip form differs from the plain one.
    func testARepeatedQueryGetsTheSameAnswerAsTheFirst() throws {
        let server = try ServerProcess()
        for path in ["/v1/resolve?lat=-33.9&lon=18.4", "/v1/clusters?altitude=15000km"] {
            let first = try exchangeOne(server, "GET \(path) HTTP/1.1")
            Thread.sleep(forTimeInterval: 1.1)
            let second = try exchangeOne(server, "GET \(path) HTTP/1.1")
            XCTAssertEqual(first.status, "HTTP/1.1 200 OK", path)
            XCTAssertEqual(second.body, first.body, path)
            XCTAssertEqual(second.headers["etag"], first.headers["etag"], path)
            XCTAssertEqual(second.headers.keys.sorted(), first.headers.keys.sorted(), path)
            if path.hasPrefix("/v1/resolve") {
                let age = { (r: EventLoopAnswerTests.RawResponse) in Int(r.headers["cache-control"]?.split(separator: "=").last ?? "") }
                let (a, b) = (try XCTUnwrap(age(first)), try XCTUnwrap(age(second)))
                XCTAssertTrue(b < a || b > 1700, "max-age counts down (or a new half hour began): \(a) then \(b)")
            }
        }
        // Revalidations are answered from the memo as afresh: 304 with the tag, Vary and a
        // Cache-Control, no body; the gzip form's tag earns it too.
        for path in ["/v1/resolve?lat=-33.9&lon=18.4", "/v1/clusters?altitude=15000km"] {
            let plain = try exchangeOne(server, "GET \(path) HTTP/1.1")
            let gzip = try exchangeOne(server, "GET \(path) HTTP/1.1\r\nAccept-Encoding: gzip")
            for (first, encoding) in [(plain, ""), (gzip, "\r\nAccept-Encoding: gzip")] {
                let tag = try XCTUnwrap(first.headers["etag"], path)
                for _ in 0..<2 {
                    let again = try exchangeOne(server, "GET \(path) HTTP/1.1\r\nIf-None-Match: \(tag)\(encoding)")
                    XCTAssertEqual(again.status, "HTTP/1.1 304 Not Modified", path)
                    XCTAssertEqual(again.headers["etag"], tag, path)
                    XCTAssertEqual(again.headers["vary"], "Accept-Encoding", path)
                    XCTAssertNotNil(again.headers["cache-control"], path)
                    XCTAssertTrue(again.body.isEmpty, path)
                }
            }
            let other = try exchangeOne(server, "GET \(path) HTTP/1.1\r\nIf-None-Match: \"0000000000000000\"")
            XCTAssertEqual(other.status, "HTTP/1.1 200 OK", path)
            XCTAssertEqual(other.body, plain.body, path)
        }
        let plain = try exchangeOne(server, "GET /v1/clusters?altitude=15000km HTTP/1.1")
        let gzip = try exchangeOne(server, "GET /v1/clusters?altitude=15000km HTTP/1.1\r\nAccept-Encoding: gzip")
        XCTAssertEqual(gzip.headers["content-encoding"], "gzip")
        XCTAssertNil(plain.headers["content-encoding"])
        XCTAssertNotEqual(gzip.headers["etag"], plain.headers["etag"])
    }
}

import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

final class ResponseCacheTests: XCTestCase {
    func testSecondRequestWithinTTLIsServedFromDiskNotTheServer() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let folder = TestSupport.scratchDirectory()
        let service = try TestSupport.service(server, providers: [.googleNews], cacheDirectory: folder)
        let first = await service.topHeadlines(country: "fr", limit: 2)
        let second = await service.topHeadlines(country: "fr", limit: 4)
        XCTAssertEqual(server.count(path: "/rss"), 1, "the second answer came from the cache")
        XCTAssertEqual(first.freshness, .network)
        guard case .cached(let age)? = second.freshness else {
            return XCTFail("expected a cache hit, got \(String(describing: second.freshness))")
        }
        XCTAssertLessThan(age, 60)
        XCTAssertEqual(second.articles.count, 4, "the limit applies after the cache")
        XCTAssertNil(second.warning)
        _ = await service.topHeadlines(country: "de", limit: 2)
        XCTAssertEqual(server.count(path: "/rss"), 2, "another edition is another entry")
    }

    func testNoCacheAsksTheServerEveryTime() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews], cacheDirectory: nil)
        _ = await service.topHeadlines(country: "fr")
        _ = await service.topHeadlines(country: "fr")
        XCTAssertEqual(server.count(path: "/rss"), 2)
    }

    func testStaleEntryIsServedWithItsAgeWhenTheNetworkFails() async throws {
        let folder = TestSupport.scratchDirectory()
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-top-us.json") }
        let warm = try TestSupport.service(server, providers: [.newsAPI], cacheDirectory: folder)
        _ = await warm.topHeadlines(country: "us", limit: 3)
        server.stop()

        // Age the entry by 42 minutes, past the 15-minute TTL.
        let cache = ResponseCache(directory: folder)
        let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        let identity = try XCTUnwrap(
            String(decoding: try Data(contentsOf: folder.appendingPathComponent(file)), as: UTF8.self)
                .split(separator: "\n").first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?[
                    "identity"] as? String)
        let entry = try XCTUnwrap(cache.entry(for: identity))
        cache.store(entry.body, url: entry.url, for: identity, now: Date().addingTimeInterval(-42 * 60))

        let offline = try TestSupport.service(server, providers: [.newsAPI], cacheDirectory: folder)
        let result = await offline.topHeadlines(country: "us", limit: 3)
        XCTAssertEqual(result.provider, .newsAPI)
        XCTAssertEqual(result.articles.map(\.sourceName), ["CNBC", "Associated Press", "ESPN"])
        XCTAssertEqual(result.warning, "NewsAPI could not be reached: connection refused; showing headlines cached 42 min ago")
        XCTAssertNil(result.error)

        // The JSON says so too, for clients that show the age themselves, and reads back.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any])
        XCTAssertEqual(json["stale"] as? Bool, true)
        let age = try XCTUnwrap(json["cacheAgeSeconds"] as? Int)
        XCTAssertTrue((42 * 60...42 * 60 + 30).contains(age), "cacheAgeSeconds \(age)")
        XCTAssertEqual(json["staleReason"] as? String, "NewsAPI could not be reached: connection refused")
        let decoded = try JSONDecoder().decode(HeadlineResult.self, from: JSONEncoder().encode(result))
        XCTAssertTrue(decoded.isStale)
        XCTAssertEqual(decoded.cacheAge, Double(age))
    }

    func testAFreshCacheHitCarriesItsAgeButIsNotStale() async throws {
        let folder = TestSupport.scratchDirectory()
        let server = try LoopbackHTTPServer { _, _ in .json("newsapi-top-us.json") }
        let service = try TestSupport.service(server, providers: [.newsAPI], cacheDirectory: folder)
        let network = await service.topHeadlines(country: "us", limit: 3)
        let networkJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(network)) as? [String: Any])
        XCTAssertNil(networkJSON["cacheAgeSeconds"])
        XCTAssertNil(networkJSON["stale"])
        let cached = await service.topHeadlines(country: "us", limit: 3)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(cached)) as? [String: Any])
        XCTAssertEqual(json["stale"] as? Bool, false)
        XCTAssertTrue((0...60).contains(try XCTUnwrap(json["cacheAgeSeconds"] as? Int)))
        XCTAssertNil(json["staleReason"])
        XCTAssertEqual(server.requests.count, 1)
    }

    func testStaleEntryIsServedWhenTheProviderKeepsFailingWith5xx() async throws {
        let folder = TestSupport.scratchDirectory()
        let server = try LoopbackHTTPServer { _, hits in hits == 1 ? .rss("google-news-fr.xml") : ScriptedResponse(status: 502) }
        let service = try TestSupport.service(server, providers: [.googleNews], cacheDirectory: folder, timeToLive: 0)
        _ = await service.topHeadlines(country: "fr")
        let result = await service.topHeadlines(country: "fr")
        XCTAssertEqual(server.count(path: "/rss"), 3, "first fetch, then 502 and its retry")
        XCTAssertEqual(result.articles.count, 4)
        XCTAssertTrue(result.warning?.hasPrefix("Google News answered HTTP 502; showing headlines cached ") ?? false, result.warning ?? "")
    }

    func testWithoutAnEntryTheNetworkErrorIsReported() async throws {
        let server = try LoopbackHTTPServer { _, _ in .notFound }
        server.stop()
        let service = try TestSupport.service(server, providers: [.googleNews], cacheDirectory: TestSupport.scratchDirectory())
        let result = await service.topHeadlines(country: "fr")
        XCTAssertEqual(result.error, "no headlines for fr: Google News could not be reached: connection refused")
        XCTAssertEqual(result.errorKind, .unavailable)
    }

    func testCacheFilesArePrivateCompleteAndFreeOfTheKey() async throws {
        let folder = TestSupport.scratchDirectory().appendingPathComponent("nested/geonews")
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/v2/top-headlines" ? .json("newsapi-top-us.json") : .json("gnews-top-fr.json")
        }
        let service = try TestSupport.service(server, providers: [.newsAPI, .gnews], cacheDirectory: folder)
        _ = await service.topHeadlines(country: "us")
        _ = await service.search("climat", language: "fr")
        _ = await service.topHeadlines(country: "fr")

        let files = TestSupport.filesContents(folder)
        XCTAssertEqual(files.count, 3)
        for (url, contents) in files {
            XCTAssertTrue(url.lastPathComponent.hasSuffix(".cache"), "no temporary file left: \(url.lastPathComponent)")
            let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o777, 0o600, url.lastPathComponent)
            XCTAssertNil(contents.range(of: Data(TestSupport.secret.utf8)), "key found in \(url.lastPathComponent)")
            XCTAssertFalse(url.path.contains(TestSupport.secret))
        }
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        XCTAssertEqual(folderMode.map { $0 & 0o777 }, 0o700)
        for request in server.requests {
            XCTAssertFalse(request.target.contains(TestSupport.secret), request.target)
            XCTAssertEqual(request.headers["x-api-key"], TestSupport.secret)
        }
    }

    func testCorruptOrForeignEntryIsAMiss() throws {
        let folder = TestSupport.scratchDirectory()
        let cache = ResponseCache(directory: folder)
        cache.store(Data("body".utf8), url: URL(string: "http://h/a")!, for: "google-news GET http://h/a")
        XCTAssertEqual(cache.entry(for: "google-news GET http://h/a")?.body, Data("body".utf8))
        XCTAssertNil(cache.entry(for: "google-news GET http://h/b"))
        try Data("not a header".utf8).write(to: cache.fileURL(for: "google-news GET http://h/a"))
        XCTAssertNil(cache.entry(for: "google-news GET http://h/a"))
    }
}

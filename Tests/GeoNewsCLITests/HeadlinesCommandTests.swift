import XCTest

/// `geonews headlines` end to end: the real executables against a loopback feed.
final class HeadlinesCommandTests: XCTestCase {
    func testSortPublishedAndPageTwoOfTheFeed() throws {
        let server = try StaticFileServer(files: [
            "rss": CommandRunner.packageRoot.appendingPathComponent("Tests/GeoNewsHeadlinesTests/Fixtures/google-news-fr.xml")
        ])
        defer { server.stop() }
        let r = try CommandRunner.geonews(
            ["headlines", "--country", "fr", "--sort", "published", "--limit", "2", "--page", "2", "--json"],
            environment: ["GEONEWS_GOOGLE_NEWS_URL": server.baseURL])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try CommandRunner.json(r.stdout)
        XCTAssertEqual(json["provider"] as? String, "google-news")
        let articles = try XCTUnwrap(json["articles"] as? [[String: Any]])
        XCTAssertEqual(
            articles.map { $0["source"] as? String }, ["BFM Bourse", "France 3 Régions"],
            "newest first, second page of two")
        XCTAssertEqual(
            articles.map { $0["sourceUrl"] as? String }, ["https://www.tradingsat.com", "https://france3-regions.francetvinfo.fr"])
    }

    func testBadPageAndSortAreUsageErrors() throws {
        let page = try CommandRunner.geonews(["headlines", "--country", "fr", "--page", "0"])
        XCTAssertEqual(page.status, 64)
        XCTAssertEqual(page.stderr, "geonews: page \"0\": must be 1…1000\n")
        let sort = try CommandRunner.geonews(["headlines", "--country", "fr", "--sort", "newest"])
        XCTAssertEqual(sort.status, 64)
        XCTAssertEqual(sort.stderr, "geonews: sort 'newest' is not one of provider published\n")
    }

    func testSearchByPopularityWithoutNewsAPIIsAUsageError() throws {
        let r = try CommandRunner.geonews(["search", "retraites", "--sort", "popularity"])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("geonews: sort \"popularity\": only NewsAPI sorts by popularity"), r.stderr)
        XCTAssertTrue(r.stdout.isEmpty)
    }

    func testAPageNoProviderReachesExits64NamingEachProvidersLimit() throws {
        let r = try CommandRunner.geonews(["headlines", "--country", "fr", "--limit", "50", "--page", "6"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("Google News returns at most 100 for a request; GDELT cannot page that far"), r.stderr)
        XCTAssertTrue(r.stdout.isEmpty)
    }
}

import XCTest

@testable import GeoNewsHeadlines

final class HeadlineConfigurationTests: XCTestCase {
    private var dataDir: String { TestSupport.editionTableURL.deletingLastPathComponent().path }

    private func environment(_ extra: [String: String] = [:]) -> [String: String] {
        let home = TestSupport.scratchDirectory().path
        return ["HOME": home, "GEONEWS_DATA": dataDir].merging(extra) { $1 }
    }

    func testDefaultOrderIsGoogleNewsThenGDELTThenKeyedProviders() throws {
        XCTAssertEqual(try HeadlineConfiguration.fromEnvironment(environment()).providers, [.googleNews, .gdelt])
        XCTAssertEqual(
            try HeadlineConfiguration.fromEnvironment(environment(["NEWSAPI_KEY": "abc"])).providers,
            [.googleNews, .gdelt, .newsAPI])
        XCTAssertEqual(
            try HeadlineConfiguration.fromEnvironment(environment(["NEWSAPI_KEY": "a", "GNEWS_API_KEY": "b"])).providers,
            [.googleNews, .gdelt, .newsAPI, .gnews])
        XCTAssertEqual(
            try HeadlineConfiguration.fromEnvironment(environment(["NEWSAPI_KEY": "  "])).providers, [.googleNews, .gdelt],
            "a blank key counts as absent")
    }

    func testGDELTIsPacedAtOneRequestPerFiveSecondsUnlessTheFileSaysOtherwise() throws {
        XCTAssertEqual(
            try HeadlineConfiguration.fromEnvironment(environment()).rateLimits,
            [.gdelt: RateLimit(requests: 1, intervalSeconds: 5)])
        let file = TestSupport.scratchDirectory().appendingPathComponent("config.json")
        try Data(
            #"{"rateLimits": {"gdelt": {"requests": 2, "intervalSeconds": 12}, "google-news": {"requests": 10, "intervalSeconds": 60}}}"#
                .utf8
        )
        .write(to: file)
        let configured = try HeadlineConfiguration.fromEnvironment(environment(["GEONEWS_CONFIG": file.path]))
        XCTAssertEqual(
            configured.rateLimits,
            [
                .gdelt: RateLimit(requests: 2, intervalSeconds: 12),
                .googleNews: RateLimit(requests: 10, intervalSeconds: 60),
            ])

        try Data(#"{"rateLimits": {"bing": {"requests": 1, "intervalSeconds": 5}}}"#.utf8).write(to: file)
        XCTAssertThrowsError(try HeadlineConfiguration.fromEnvironment(environment(["GEONEWS_CONFIG": file.path]))) { error in
            XCTAssertEqual(
                (error as? HeadlineError)?.message,
                "configuration config.json: rateLimits names \"bing\", not one of google-news, newsapi, gnews, gdelt")
        }
        // 1e300 s once passed, and the pause it asked for trapped UInt64(seconds * 1e9).
        for limit in [#""requests": 0, "intervalSeconds": 5"#, #""requests": 1, "intervalSeconds": 1e300"#] {
            try Data(#"{"rateLimits": {"gdelt": {\#(limit)}}}"#.utf8).write(to: file)
            XCTAssertThrowsError(try HeadlineConfiguration.fromEnvironment(environment(["GEONEWS_CONFIG": file.path]))) { error in
                XCTAssertEqual(
                    (error as? HeadlineError)?.message,
                    "configuration config.json: rateLimits.gdelt needs requests ≥ 1 and intervalSeconds in 0…86400")
            }
        }
    }

    func testChosenProviderWithoutKeyIsAMissingKeyError() {
        XCTAssertThrowsError(try HeadlineConfiguration.fromEnvironment(environment(), providers: [.newsAPI])) { error in
            XCTAssertEqual(error as? HeadlineError, .missingKey(.newsAPI))
            XCTAssertEqual((error as? HeadlineError)?.kind, .configuration)
        }
    }

    func testConfigFileFromXDGConfigHomeSuppliesKeysOrderAndTimeouts() throws {
        let xdg = TestSupport.scratchDirectory()
        try FileManager.default.createDirectory(at: xdg.appendingPathComponent("geonews"), withIntermediateDirectories: true)
        let file =
            #"{"providers": ["newsapi", "google-news"], "newsapiKey": "from-file", "cacheTTLSeconds": 60, "connectTimeoutSeconds": 2, "requestTimeoutSeconds": 4}"#
        try Data(file.utf8).write(to: xdg.appendingPathComponent("geonews/config.json"))
        let configuration = try HeadlineConfiguration.fromEnvironment(environment(["XDG_CONFIG_HOME": xdg.path]))
        XCTAssertEqual(configuration.providers, [.newsAPI, .googleNews])
        XCTAssertEqual(configuration.newsAPIKey, APIKey("from-file"))
        XCTAssertEqual(configuration.timeouts, HTTPTimeouts(connect: 2, request: 4))
        XCTAssertEqual(configuration.cache?.timeToLive, 60)

        let overridden = try HeadlineConfiguration.fromEnvironment(
            environment(["XDG_CONFIG_HOME": xdg.path, "NEWSAPI_KEY": "from-env"]),
            providers: [.googleNews])
        XCTAssertEqual(overridden.newsAPIKey, APIKey("from-env"), "the environment wins over the file")
        XCTAssertEqual(overridden.providers, [.googleNews], "--provider wins over the file")
    }

    func testBrokenConfigFileNamesFileAndField() throws {
        let file = TestSupport.scratchDirectory().appendingPathComponent("config.json")
        try Data(#"{"providers": ["google-news", "bing"]}"#.utf8).write(to: file)
        XCTAssertThrowsError(try HeadlineConfiguration.fromEnvironment(environment(["GEONEWS_CONFIG": file.path]))) { error in
            XCTAssertEqual(error as? HeadlineError, .configuration(source: file.path, detail: "field providers[1]: unreadable value"))
        }
        XCTAssertThrowsError(try HeadlineConfiguration.fromEnvironment(environment(["GEONEWS_CONFIG": "/nonexistent/geonews.json"]))) {
            error in
            XCTAssertEqual(
                error as? HeadlineError, .configuration(source: "GEONEWS_CONFIG", detail: "/nonexistent/geonews.json does not exist"))
        }
    }

    func testCacheFolderHonoursOverrideThenXDGThenHome() throws {
        XCTAssertEqual(HeadlineConfiguration.cacheDirectory(["GEONEWS_CACHE_DIR": "/tmp/a", "XDG_CACHE_HOME": "/tmp/b"]).path, "/tmp/a")
        XCTAssertEqual(HeadlineConfiguration.cacheDirectory(["XDG_CACHE_HOME": "/tmp/b", "HOME": "/home/u"]).path, "/tmp/b/geonews")
        XCTAssertEqual(
            HeadlineConfiguration.cacheDirectory(["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path, "/home/u/.cache/geonews")
        XCTAssertNil(try HeadlineConfiguration.fromEnvironment(environment(), useCache: false).cache)
    }

    func testBaseURLOverridesKeepOnlySchemeHostAndPort() throws {
        let configuration = try HeadlineConfiguration.fromEnvironment(
            environment([
                "GEONEWS_NEWSAPI_URL": "http://127.0.0.1:8081", "GEONEWS_GOOGLE_NEWS_URL": "https://proxy.example/",
                "GEONEWS_GNEWS_URL": "http://localhost:9", "GEONEWS_GDELT_URL": "http://127.0.0.1:8082",
            ]))
        XCTAssertEqual(configuration.baseURL(for: .gdelt).absoluteString, "http://127.0.0.1:8082")
        XCTAssertEqual(configuration.baseURL(for: .newsAPI).absoluteString, "http://127.0.0.1:8081")
        XCTAssertEqual(configuration.baseURL(for: .googleNews).absoluteString, "https://proxy.example")
        XCTAssertEqual(configuration.baseURL(for: .gnews).absoluteString, "http://localhost:9")
        XCTAssertThrowsError(try HeadlineConfiguration.fromEnvironment(environment(["GEONEWS_NEWSAPI_URL": "http://h/v2"]))) { error in
            XCTAssertEqual((error as? HeadlineError)?.kind, .configuration)
            XCTAssertTrue((error as? HeadlineError)?.message.contains("GEONEWS_NEWSAPI_URL") ?? false)
        }
        XCTAssertThrowsError(try HeadlineConfiguration.fromEnvironment(environment(["GEONEWS_GNEWS_URL": "ftp://h"])))
    }

    func testKeyNeverPrintsItself() {
        let key = TestSupport.key
        XCTAssertEqual("\(key)", "[redacted]")
        XCTAssertEqual(String(reflecting: key), "[redacted]")
        XCTAssertEqual(key.redacting("bad key \(TestSupport.secret)!"), "bad key [redacted]!")
    }
}

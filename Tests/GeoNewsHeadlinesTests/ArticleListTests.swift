import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

/// Publisher links, duplicates, order and pages, across providers.
final class ArticleListTests: XCTestCase {
    func testGoogleNewsItemsCarryThePublishersOwnSite() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 4)
        XCTAssertEqual(
            result.articles.map { $0.sourceURL?.absoluteString },
            [
                "https://www.lemonde.fr", "https://www.lequipe.fr", "https://france3-regions.francetvinfo.fr", "https://www.tradingsat.com",
            ])
        XCTAssertTrue(result.articles[0].url.absoluteString.hasPrefix("https://news.google.com/rss/articles/"), "url stays Google's")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(result.articles[0]), as: UTF8.self)
        XCTAssertTrue(json.contains(#""sourceUrl":"https://www.lemonde.fr""#), json)
        XCTAssertEqual(try JSONDecoder().decode(Article.self, from: Data(json.utf8)), result.articles[0])
    }

    func testTheSameStoryFromTheSamePublisherIsShownOnce() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-duplicates.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 10)
        XCTAssertEqual(
            result.articles.map(\.sourceName), ["Le Monde", "Libération", "BFM Bourse"],
            "Le Monde's second copy (case and punctuation aside) is dropped; Libération's is kept")
        XCTAssertEqual(result.articles[0].url.absoluteString, "https://news.google.com/rss/articles/CBMiAAA?oc=5", "the first copy stays")
    }

    func testSortPublishedIsNewestFirstForEveryProvider() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            switch request.path {
            case "/rss": return .rss("google-news-fr.xml")
            case "/api/v2/doc/doc": return .json("gdelt-at.json")
            case "/v2/top-headlines": return .json("newsapi-top-us.json")
            default: return .json("gnews-top-fr.json")
            }
        }
        for provider in [NewsProvider.googleNews, .gdelt, .newsAPI, .gnews] {
            let service = try TestSupport.service(server, providers: [provider])
            let result = await service.topHeadlines(country: "us", limit: 10, order: .published)
            XCTAssertEqual(result.provider, provider)
            let dates = result.articles.compactMap(\.publishedAt)
            XCTAssertGreaterThan(dates.count, 1, "\(provider)")
            XCTAssertEqual(dates, dates.sorted(by: >), "\(provider) newest first")
        }
        let ranked = try TestSupport.service(server, providers: [.googleNews])
        let byProvider = await ranked.topHeadlines(country: "fr", limit: 4)
        XCTAssertEqual(
            byProvider.articles.map(\.sourceName), ["Le Monde", "L'Équipe", "France 3 Régions", "BFM Bourse"],
            "the default keeps Google's ranking")
        let byDate = await ranked.topHeadlines(country: "fr", limit: 4, order: .published)
        XCTAssertEqual(byDate.articles.map(\.sourceName), ["L'Équipe", "Le Monde", "BFM Bourse", "France 3 Régions"])
    }

    func testPagesAreCutFromGoogleNewsFeedAndFromGDELTsAnswer() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/rss" ? .rss("google-news-fr.xml") : .json("gdelt-at.json")
        }
        let google = try TestSupport.service(server, providers: [.googleNews])
        let second = await google.topHeadlines(country: "fr", limit: 2, page: 2)
        XCTAssertEqual(second.articles.map(\.sourceName), ["France 3 Régions", "BFM Bourse"])
        let past = await google.topHeadlines(country: "fr", limit: 2, page: 3)
        XCTAssertEqual(
            past.attempts.map(\.summary), ["Google News: no articles (the answer held 4 articles; page 3 of 2 starts after them)"])

        let gdelt = try TestSupport.service(server, providers: [.gdelt])
        let page = await gdelt.topHeadlines(country: "at", limit: 2, page: 2)
        XCTAssertEqual(server.requests.last?.query["maxrecords"], "4", "GDELT has no offset: ask for pages 1 and 2 at once")
        XCTAssertEqual(page.articles.map(\.sourceName), ["diepresse.com", "vienna.at"], "after the duplicate is dropped")
    }

    /// GDELT's wire format with as many articles as `maxrecords` asks for, newest first.
    private static func gdeltAnswer(_ request: RecordedRequest) -> ScriptedResponse {
        let count = Int(request.query["maxrecords"] ?? "") ?? 0
        let articles = (0..<count).map { index in
            let minute = String(format: "%02d%02d", 23 - index / 60, 59 - index % 60)
            return
                #"{"url": "https://orf.at/stories/\#(index)/", "url_mobile": "", "title": "Meldung \#(index)", "seendate": "20240501T\#(minute)00Z", "socialimage": "", "domain": "orf.at", "language": "German", "sourcecountry": "Austria"}"#
        }
        return ScriptedResponse(
            status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
            body: Data(#"{"articles": [\#(articles.joined(separator: ", "))]}"#.utf8))
    }

    func testAPageBeyondWhatAProviderCanReachSaysSoAndTheNextProviderServesIt() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/rss" ? .rss("google-news-fr.xml") : Self.gdeltAnswer(request)
        }
        let both = try TestSupport.service(server, providers: [.googleNews, .gdelt])
        let third = await both.topHeadlines(country: "at", limit: 50, page: 3)
        XCTAssertEqual(third.provider, .gdelt)
        XCTAssertEqual(third.articles.first?.title, "Meldung 100")
        XCTAssertEqual(third.articles.last?.title, "Meldung 149")
        XCTAssertEqual(
            third.attempts.first?.outcome,
            .failed(
                message:
                    "Google News cannot page that far: page 3 of 50 needs articles 101–150, and Google News returns at most 100 for a request"
            ))
        XCTAssertEqual(server.requests.map(\.path), ["/api/v2/doc/doc"], "Google News was not asked")
        XCTAssertEqual(server.requests.last?.query["maxrecords"], "150")

        let beyond = await both.topHeadlines(country: "at", limit: 50, page: 6)
        XCTAssertNil(beyond.provider)
        XCTAssertEqual(
            beyond.error,
            "no headlines for at: "
                + "Google News cannot page that far: page 6 of 50 needs articles 251–300, and Google News returns at most 100 for a request; "
                + "GDELT cannot page that far: page 6 of 50 needs articles 251–300, and GDELT returns at most 250 for a request")
        XCTAssertEqual(beyond.errorKind, .badInput)
        XCTAssertEqual(server.requests.count, 1, "nothing asked for an unreachable page")
    }

    func testNewsAPIAndGNewsPageThemselves() async throws {
        let server = try LoopbackHTTPServer { request, _ in
            request.path == "/v2/everything" ? .json("newsapi-everything-climat.json") : .json("gnews-top-fr.json")
        }
        let newsAPI = try TestSupport.service(server, providers: [.newsAPI])
        _ = await newsAPI.search("climat", limit: 5, page: 3)
        XCTAssertEqual(server.requests.last?.query["page"], "3")
        XCTAssertEqual(server.requests.last?.query["pageSize"], "5")
        let gnews = try TestSupport.service(server, providers: [.gnews])
        let result = await gnews.topHeadlines(country: "fr", limit: 2, page: 4)
        XCTAssertEqual(server.requests.last?.query["page"], "4")
        XCTAssertEqual(server.requests.last?.query["max"], "2")
        XCTAssertEqual(result.articles.count, 2)
    }

    func testPageZeroIsRejectedBeforeAnyRequest() async throws {
        let server = try LoopbackHTTPServer { _, _ in .rss("google-news-fr.xml") }
        let service = try TestSupport.service(server, providers: [.googleNews])
        let result = await service.topHeadlines(country: "fr", limit: 5, page: 0)
        XCTAssertEqual(result.error, "page \"0\": must be 1…1000")
        XCTAssertEqual(result.errorKind, .badInput)
        XCTAssertTrue(server.requests.isEmpty)
    }
}

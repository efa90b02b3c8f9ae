import XCTest

@testable import GeoNewsHeadlines

final class RSSFeedTests: XCTestCase {
    func testGoogleNewsFixtureMapsToArticlesInFeedOrder() throws {
        let items = try RSSFeed.items(from: Fixture.data("google-news-fr.xml"), provider: .googleNews)
        XCTAssertEqual(items.count, 4)
        let articles = items.compactMap(GoogleNewsRSS.article)
        XCTAssertEqual(
            articles.map(\.title),
            [
                "Réforme des retraites : le Sénat adopte le texte",
                "Paris-Roubaix - Nice : la course en direct",
                "Météo & alertes : orages attendus dans le Sud",
                "Le CAC 40 ouvre en hausse",
            ])
        XCTAssertEqual(articles.map(\.sourceName), ["Le Monde", "L'Équipe", "France 3 Régions", "BFM Bourse"])
        XCTAssertEqual(articles[0].url.absoluteString, "https://news.google.com/rss/articles/CBMiRmh0dHBzOi8vd3d3LmxlbW9uZGUuZnIvYQ?oc=5")
        XCTAssertEqual(articles[0].publishedAt, TestSupport.date("2024-05-01T09:30:00Z"))
        XCTAssertEqual(articles[3].publishedAt, TestSupport.date("2024-05-01T05:02:11Z"))
        XCTAssertNil(articles[0].description)
        XCTAssertEqual(items[0].sourceURL, "https://www.lemonde.fr")
        XCTAssertTrue(articles.allSatisfy { $0.provider == .googleNews })
    }

    func testTitleSplitsOnLastDashWhenSourceIsMissingOrDifferent() {
        XCTAssertEqual(GoogleNewsRSS.splitTitle("A - B - Reuters", source: "").headline, "A - B")
        XCTAssertEqual(GoogleNewsRSS.splitTitle("A - B - Reuters", source: "").publisher, "Reuters")
        XCTAssertEqual(GoogleNewsRSS.splitTitle("A - B - Le Monde.fr", source: "Le Monde").headline, "A - B")
        XCTAssertEqual(GoogleNewsRSS.splitTitle("No publisher here", source: "").headline, "No publisher here")
        XCTAssertNil(GoogleNewsRSS.splitTitle("No publisher here", source: "").publisher)
        XCTAssertEqual(GoogleNewsRSS.splitTitle("Brexit - what next - BBC News", source: "BBC News").headline, "Brexit - what next")
    }

    func testEmptyChannelHasNoItems() throws {
        XCTAssertEqual(try RSSFeed.items(from: Fixture.data("google-news-empty.xml"), provider: .googleNews), [])
    }

    func testMalformedXMLIsATypedErrorNamingTheLine() {
        XCTAssertThrowsError(try RSSFeed.items(from: Fixture.data("google-news-malformed.xml"), provider: .googleNews)) { error in
            guard case .malformedResponse(.googleNews, let detail)? = error as? HeadlineError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertTrue(detail.hasPrefix("XML error at line 2"), detail)
        }
    }

    func testHTMLInsteadOfRSSIsRejected() {
        XCTAssertThrowsError(try RSSFeed.items(from: Data("<html><body>hi</body></html>".utf8), provider: .googleNews)) { error in
            XCTAssertEqual(error as? HeadlineError, .malformedResponse(.googleNews, detail: "expected an <rss> document, found <html>"))
        }
    }

    /// Found by the rss fuzz target: FoundationXML traps on an element name that is not UTF-8.
    func testAnElementNameThatIsNotUTF8IsATypedErrorNotATrap() {
        let body = Data("<rss version=\"2.0\"><channel><ti".utf8) + Data([0xFF, 0x7F]) + Data("tle>x</title></channel></rss>".utf8)
        XCTAssertThrowsError(try RSSFeed.items(from: body, provider: .googleNews)) { error in
            XCTAssertEqual(error as? HeadlineError, .malformedResponse(.googleNews, detail: "the body is not UTF-8 text (byte 31)"))
        }
    }

    /// Found by the rss fuzz target: FoundationXML reads a NULL pointer for `<?x?>`.
    func testAProcessingInstructionWithoutDataIsATypedErrorNotACrash() {
        let body = Data(#"<?xml version="1.0"?><rss version="2.0"><?x?><channel></channel></rss>"#.utf8)
        XCTAssertThrowsError(try RSSFeed.items(from: body, provider: .googleNews)) { error in
            XCTAssertEqual(
                error as? HeadlineError,
                .malformedResponse(.googleNews, detail: "a processing instruction without data (byte 40)"))
        }
    }

    func testItemWithoutLinkIsSkipped() {
        XCTAssertNil(GoogleNewsRSS.article(from: RSSItem(title: "Headline - Source", link: "")))
    }

    /// A link a page would run or load inline is no article: only http and https with a host.
    func testAnItemWhoseLinkIsNotAWebAddressIsSkipped() {
        for link in [
            "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "https:///path",
        ] {
            XCTAssertNil(GoogleNewsRSS.article(from: RSSItem(title: "Headline - Source", link: link)), link)
        }
        let kept = GoogleNewsRSS.article(from: RSSItem(title: "Headline - Source", link: "HTTPS://example.org/a"))
        XCTAssertEqual(kept?.url.host, "example.org")
    }

    func testOnlyWebAddressesAreWebURLs() {
        XCTAssertEqual(Article.webURL("http://example.org/x?y=1")?.absoluteString, "http://example.org/x?y=1")
        XCTAssertNil(Article.webURL(nil))
        XCTAssertNil(Article.webURL(""))
        XCTAssertNil(Article.webURL("vbscript:msgbox"))
        XCTAssertNil(Article.webURL("//example.org/relative"))
    }
}

import Foundation

/// The providers' answer parsers over a body received with status 200, for this package's
/// fuzz target. Package access rather than `@testable import`, which a release build cannot
/// compile; nothing here is public API.
package enum ProviderAnswers {
    private static let url = URL(fileURLWithPath: "/")

    private static func response(_ body: Data) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body, url: url)
    }

    /// Google News RSS items as articles, read as the French edition.
    package static func rss(_ body: Data) throws -> [Article] {
        try GoogleNewsRSS.articles(from: response(body), edition: GoogleNewsEdition(hl: "fr", gl: "FR", ceid: "FR:fr"), country: "FR")
    }

    /// NewsAPI's articles; those without a title or a usable URL are dropped.
    package static func newsAPI(_ body: Data, key: APIKey) throws -> [Article] {
        try NewsAPIWire.decode(NewsAPIWire.Articles.self, from: response(body), key: key).articles.compactMap(NewsAPIWire.article)
    }

    /// GNews's articles.
    package static func gnews(_ body: Data, key: APIKey) throws -> [Article] {
        try GNews.articles(from: response(body), key: key)
    }

    /// GDELT's articles as it sent them (title and URL), before any are dropped.
    package static func gdelt(_ body: Data) throws -> [(title: String?, url: String?)] {
        try GDELTWire.decode(response(body)).map { ($0.title, $0.url) }
    }

    /// `body` with the escapes GDELT sends that JSON lacks mended (see `GDELTWire`).
    package static func gdeltRepairingEscapes(_ body: Data) -> Data {
        GDELTWire.repairingEscapes(body)
    }
}

import Foundation

/// NewsAPI v2 bodies as sent on the wire.
enum NewsAPIWire {
    /// Every body has `status`; "error" bodies add `code` and `message`.
    struct Status: Decodable {
        var status: String
        var code: String?
        var message: String?
    }

    struct Articles: Decodable {
        var totalResults: Int?
        var articles: [WireArticle]
    }

    struct WireArticle: Decodable {
        struct Source: Decodable {
            var id: String?
            var name: String?
        }
        var source: Source?
        var author: String?
        var title: String?
        var description: String?
        var url: String?
        var urlToImage: String?
        var publishedAt: String?
    }

    struct Sources: Decodable {
        var sources: [NewsSource]
    }

    /// The placeholder NewsAPI leaves where an article was taken down: title, source and
    /// description "[Removed]", url https://removed.com.
    static func isRemovedPlaceholder(_ article: WireArticle) -> Bool {
        article.title == "[Removed]" || article.source?.name == "[Removed]" || article.url == "https://removed.com"
    }

    static func article(_ wire: WireArticle) -> Article? {
        guard !isRemovedPlaceholder(wire), let title = wire.title?.trimmingCharacters(in: .whitespacesAndNewlines),
            !title.isEmpty, let url = Article.webURL(wire.url)
        else { return nil }
        return Article(
            title: Article.headline(title, publisher: wire.source?.name), sourceName: wire.source?.name, author: nonEmpty(wire.author),
            description: nonEmpty(wire.description), url: url,
            imageURL: Article.webURL(wire.urlToImage),
            publishedAt: wire.publishedAt.flatMap(WireTimestamp.iso8601), provider: .newsAPI)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// Decodes a body: an error body (any HTTP status) becomes `HeadlineError.newsAPI` with the
    /// message redacted; a non-2xx answer without one becomes `httpStatus` / `rateLimited`.
    static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, key: APIKey?) throws -> T {
        if let status = try? JSONDecoder().decode(Status.self, from: response.body), status.status == "error" {
            let message = status.message.map { key?.redacting($0) ?? $0 } ?? "no message"
            throw HeadlineError.newsAPI(NewsAPIErrorCode(code: status.code ?? "unknown"), status: response.status, message: message)
        }
        guard response.isSuccess else { throw response.failure(.newsAPI, key: key) }
        return try JSONBody.decode(type, from: response.body, provider: .newsAPI)
    }
}

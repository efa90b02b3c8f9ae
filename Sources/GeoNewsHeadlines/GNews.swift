import Foundation

/// GNews v4 (`/api/v4/top-headlines`, `/api/v4/search`).
///
/// GNews documents two ways to pass the key, the `apikey` query parameter and the `X-Api-Key`
/// header; we use only the header, so the key never enters a URL, a log line or a cache key.
/// Its top headlines follow Google News' ranking, so their order is kept.
public struct GNews: HeadlineSource {
    public let provider = NewsProvider.gnews
    let fetcher: ProviderFetcher
    let baseURL: URL
    let key: APIKey

    /// Error bodies: `{"errors": ["message"]}` or `{"errors": {"field": "message"}}`.
    private enum ErrorBody: Decodable {
        case messages([String])
        case fields([String: String])

        private enum Keys: String, CodingKey { case errors }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            if let list = try? container.decode([String].self, forKey: .errors) {
                self = .messages(list)
            } else {
                self = .fields(try container.decode([String: String].self, forKey: .errors))
            }
        }

        var text: String {
            switch self {
            case .messages(let list): return list.joined(separator: "; ")
            case .fields(let map): return map.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            }
        }
    }

    private struct Body: Decodable {
        struct WireArticle: Decodable {
            struct Source: Decodable {
                var name: String?
                var url: String?
            }
            var title: String?
            var description: String?
            var url: String?
            var image: String?
            var publishedAt: String?
            var source: Source?
        }
        var totalArticles: Int?
        var articles: [WireArticle]
    }

    public func topHeadlines(
        country: String, category: HeadlineCategory?, language: String?, page: ArticlePage,
        order: HeadlineOrder
    ) async throws -> ArticleBatch {
        var query = [URLQueryItem(name: "country", value: country.lowercased())]
        // GNews has all seven of NewsAPI's categories under the same names (plus world, nation).
        if let category { query.append(URLQueryItem(name: "category", value: category.rawValue)) }
        if let language { query.append(URLQueryItem(name: "lang", value: language.lowercased())) }
        query += Self.paging(page)
        let fetched = try await articles(path: "/api/v4/top-headlines", query: query)
        return ArticleBatch(answer: fetched.value, page: ArticlePage(size: page.size), order: order, freshness: fetched.freshness)
    }

    public func search(
        query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort,
        page: ArticlePage
    ) async throws -> ArticleBatch {
        guard sortBy != .popularity else {
            throw HeadlineError.unsupported(provider, operation: "sorting by popularity")
        }
        var items = [URLQueryItem(name: "q", value: query)]
        if let language { items.append(URLQueryItem(name: "lang", value: language.lowercased())) }
        if let from { items.append(URLQueryItem(name: "from", value: WireTimestamp.iso8601String(from))) }
        if let to { items.append(URLQueryItem(name: "to", value: WireTimestamp.iso8601String(to))) }
        items.append(URLQueryItem(name: "sortby", value: sortBy == .published ? "publishedAt" : "relevance"))
        items += Self.paging(page)
        let fetched = try await articles(path: "/api/v4/search", query: items)
        return ArticleBatch(
            answer: fetched.value, page: ArticlePage(size: page.size),
            order: sortBy == .published ? .published : .provider, freshness: fetched.freshness)
    }

    /// GNews pages itself: `max` articles per page, `page` from 1 (sent only past the first).
    private static func paging(_ page: ArticlePage) -> [URLQueryItem] {
        var items = [URLQueryItem(name: "max", value: String(min(100, page.size)))]
        if page.number > 1 { items.append(URLQueryItem(name: "page", value: String(page.number))) }
        return items
    }

    private func articles(path: String, query: [URLQueryItem]) async throws -> Fetched<[Article]> {
        let request = ProviderRequest(provider: provider, baseURL: baseURL, path: path, query: query, apiKey: key)
        return try await fetcher.fetch(request) { [key] response in try Self.articles(from: response, key: key) }
    }

    /// The articles of an answer: those without a title or an absolute URL are left out; an
    /// error answer becomes a `HeadlineError` with the key redacted from its message.
    static func articles(from response: HTTPResponse, key: APIKey) throws -> [Article] {
        guard response.isSuccess else {
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.text
            if response.status == 403 {
                throw HeadlineError.httpStatus(
                    .gnews, status: 403,
                    message: key.redacting(
                        (message ?? "forbidden") + " (daily quota reached; it resets at 00:00 UTC)"))
            }
            throw response.failure(.gnews, key: key, message: message)
        }
        return try JSONBody.decode(Body.self, from: response.body, provider: .gnews).articles.compactMap { wire in
            guard let title = wire.title, !title.isEmpty, let url = Article.webURL(wire.url) else { return nil }
            return Article(
                title: title, sourceName: wire.source?.name, description: wire.description, url: url,
                imageURL: Article.webURL(wire.image),
                publishedAt: wire.publishedAt.flatMap(WireTimestamp.iso8601), provider: .gnews,
                sourceURL: wire.source?.url.flatMap { URL(string: $0) })
        }
    }
}

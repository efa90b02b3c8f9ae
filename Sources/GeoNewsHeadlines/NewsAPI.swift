import Foundation

/// NewsAPI v2 (`/v2/top-headlines`, `/v2/everything`, `/v2/top-headlines/sources`), keyed by
/// the `X-Api-Key` header.
///
/// Since mid-2024 `/v2/top-headlines?country=XX` answers `totalResults: 0` for every country
/// except `us`; such empty batches carry a note saying so, and the chain moves on.
public struct NewsAPI: HeadlineSource {
    public let provider = NewsProvider.newsAPI
    let fetcher: ProviderFetcher
    let baseURL: URL
    let key: APIKey

    /// NewsAPI's search languages (`ud` is its code for Urdu).
    public static let languages: Set<String> = ["ar", "de", "en", "es", "fr", "he", "it", "nl", "no", "pt", "ru", "sv", "ud", "zh"]

    /// NewsAPI's page size ceiling.
    static let largestPage = 100

    /// NewsAPI does not rank top headlines, so they come back newest first. A few extra
    /// articles are asked for, to make up for "[Removed]" placeholders that are dropped.
    public func topHeadlines(
        country: String, category: HeadlineCategory?, language: String?, page: ArticlePage,
        order: HeadlineOrder
    ) async throws -> ArticleBatch {
        var query = [URLQueryItem(name: "country", value: country.lowercased())]
        if let category { query.append(URLQueryItem(name: "category", value: category.rawValue)) }
        query += Self.paging(page)
        let fetched = try await articles(path: "/v2/top-headlines", query: query)
        let articles = ArticleBatch(
            answer: fetched.value, page: ArticlePage(size: page.size), order: .published,
            freshness: fetched.freshness
        ).articles
        let note =
            articles.isEmpty && country.lowercased() != "us"
            ? "NewsAPI has returned top headlines only for \"us\" since 2024" : nil
        return ArticleBatch(articles: articles, freshness: fetched.freshness, note: note)
    }

    public func search(
        query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort,
        page: ArticlePage
    ) async throws -> ArticleBatch {
        var items = [URLQueryItem(name: "q", value: query)]
        if let language {
            guard Self.languages.contains(language.lowercased()) else {
                throw HeadlineError.unsupported(provider, operation: "search in language \"\(language)\"")
            }
            items.append(URLQueryItem(name: "language", value: language.lowercased()))
        }
        if let from { items.append(URLQueryItem(name: "from", value: WireTimestamp.iso8601String(from))) }
        if let to { items.append(URLQueryItem(name: "to", value: WireTimestamp.iso8601String(to))) }
        let sort: String
        switch sortBy {
        case .published: sort = "publishedAt"
        case .relevance: sort = "relevancy"
        case .popularity: sort = "popularity"
        }
        items.append(URLQueryItem(name: "sortBy", value: sort))
        items += Self.paging(page)
        let fetched = try await articles(path: "/v2/everything", query: items)
        return ArticleBatch(
            answer: fetched.value, page: ArticlePage(size: page.size),
            order: sortBy == .published ? .published : .provider, freshness: fetched.freshness)
    }

    /// NewsAPI pages itself (`page`, `pageSize`). The first page asks for 10 more than wanted, to
    /// make up for "[Removed]" placeholders and duplicates that are dropped; later pages ask
    /// for exactly `limit`, so that page N starts where N − 1 ended.
    private static func paging(_ page: ArticlePage) -> [URLQueryItem] {
        guard page.number > 1 else {
            return [URLQueryItem(name: "pageSize", value: String(min(largestPage, page.size + 10)))]
        }
        return [
            URLQueryItem(name: "pageSize", value: String(min(largestPage, page.size))),
            URLQueryItem(name: "page", value: String(page.number)),
        ]
    }

    public func sources(country: String?, category: HeadlineCategory?, language: String?) async throws -> [NewsSource] {
        var items: [URLQueryItem] = []
        if let country { items.append(URLQueryItem(name: "country", value: country.lowercased())) }
        if let category { items.append(URLQueryItem(name: "category", value: category.rawValue)) }
        if let language { items.append(URLQueryItem(name: "language", value: language.lowercased())) }
        let request = ProviderRequest(
            provider: provider, baseURL: baseURL, path: "/v2/top-headlines/sources",
            query: items, apiKey: key)
        return try await fetcher.fetch(request) { [key] response in
            try NewsAPIWire.decode(NewsAPIWire.Sources.self, from: response, key: key).sources
        }.value
    }

    private func articles(path: String, query: [URLQueryItem]) async throws -> Fetched<[Article]> {
        let request = ProviderRequest(provider: provider, baseURL: baseURL, path: path, query: query, apiKey: key)
        return try await fetcher.fetch(request) { [key] response in
            try NewsAPIWire.decode(NewsAPIWire.Articles.self, from: response, key: key).articles.compactMap(NewsAPIWire.article)
        }
    }
}

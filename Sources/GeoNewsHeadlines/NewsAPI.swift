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
    public func topHeadlines(country: String, category: HeadlineCategory?, language: String?, limit: Int) async throws -> ArticleBatch {
        var query = [URLQueryItem(name: "country", value: country.lowercased())]
        if let category { query.append(URLQueryItem(name: "category", value: category.rawValue)) }
        query.append(URLQueryItem(name: "pageSize", value: String(min(Self.largestPage, limit + 10))))
        let fetched = try await articles(path: "/v2/top-headlines", query: query)
        let articles = Array(fetched.value.sortedNewestFirst().prefix(limit))
        let note = articles.isEmpty && country.lowercased() != "us"
            ? "NewsAPI has returned top headlines only for \"us\" since 2024" : nil
        return ArticleBatch(articles: articles, freshness: fetched.freshness, note: note)
    }

    public func search(query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort, limit: Int) async throws -> ArticleBatch {
        var items = [URLQueryItem(name: "q", value: query)]
        if let language {
            guard Self.languages.contains(language.lowercased()) else {
                throw HeadlineError.unsupported(provider, operation: "search in language \"\(language)\"")
            }
            items.append(URLQueryItem(name: "language", value: language.lowercased()))
        }
        if let from { items.append(URLQueryItem(name: "from", value: Timestamp.iso8601String(from))) }
        if let to { items.append(URLQueryItem(name: "to", value: Timestamp.iso8601String(to))) }
        let sort: String
        switch sortBy {
        case .published: sort = "publishedAt"
        case .relevance: sort = "relevancy"
        case .popularity: sort = "popularity"
        }
        items.append(URLQueryItem(name: "sortBy", value: sort))
        items.append(URLQueryItem(name: "pageSize", value: String(min(Self.largestPage, limit + 10))))
        let fetched = try await articles(path: "/v2/everything", query: items)
        return ArticleBatch(articles: Array(fetched.value.prefix(limit)), freshness: fetched.freshness)
    }

    public func sources(country: String?, category: HeadlineCategory?, language: String?) async throws -> [NewsSource] {
        var items: [URLQueryItem] = []
        if let country { items.append(URLQueryItem(name: "country", value: country.lowercased())) }
        if let category { items.append(URLQueryItem(name: "category", value: category.rawValue)) }
        if let language { items.append(URLQueryItem(name: "language", value: language.lowercased())) }
        let request = ProviderRequest(provider: provider, baseURL: baseURL, path: "/v2/top-headlines/sources",
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

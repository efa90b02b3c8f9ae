import Foundation

/// Google News RSS: one edition per country, no key.
///
/// Front page: `/rss?hl=…&gl=…&ceid=…`; topics: `/rss/headlines/section/topic/{TOPIC}` with the
/// same query; search: `/rss/search?q=…`. Google ranks the front page and topics, so their order
/// is kept. An edition Google does not serve redirects to `/rss/unsupported`.
public struct GoogleNewsRSS: HeadlineSource {
    public let provider = NewsProvider.googleNews
    let fetcher: ProviderFetcher
    let baseURL: URL
    let editions: GoogleNewsEditionTable

    /// Google's topic section for a category; `general` is the front page ("Top stories").
    static func topic(for category: HeadlineCategory?) -> String? {
        switch category {
        case nil, .general?: return nil
        case .business?: return "BUSINESS"
        case .entertainment?: return "ENTERTAINMENT"
        case .health?: return "HEALTH"
        case .science?: return "SCIENCE"
        case .sports?: return "SPORTS"
        case .technology?: return "TECHNOLOGY"
        }
    }

    /// Google News feeds carry at most 100 items: pages are cut from that one answer.
    static let largestAnswer = 100

    public func topHeadlines(
        country: String, category: HeadlineCategory?, language: String?, page: ArticlePage,
        order: HeadlineOrder
    ) async throws -> ArticleBatch {
        try page.check(provider, reachable: Self.largestAnswer)
        guard let edition = editions.edition(country: country, language: language) else {
            throw HeadlineError.unknownCountry(country)
        }
        let path = Self.topic(for: category).map { "/rss/headlines/section/topic/\($0)" } ?? "/rss"
        let fetched = try await fetcher.fetch(request(path: path, edition: edition)) { response in
            try Self.articles(from: response, edition: edition, country: country)
        }
        return ArticleBatch(answer: fetched.value, page: page, order: order, freshness: fetched.freshness)
    }

    /// Searches the edition of `language` (English, US edition, when `nil`). Date bounds become
    /// Google's `after:` / `before:` operators (whole days, UTC). Popularity is not offered.
    public func search(
        query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort,
        page: ArticlePage
    ) async throws -> ArticleBatch {
        guard sortBy != .popularity else {
            throw HeadlineError.unsupported(provider, operation: "sorting by popularity")
        }
        try page.check(provider, reachable: Self.largestAnswer)
        let language = language ?? "en"
        guard let edition = editions.searchEdition(language: language) else {
            throw HeadlineError.unsupported(provider, operation: "search in language \"\(language)\"")
        }
        var terms = [query]
        if let from { terms.append("after:" + WireTimestamp.iso8601String(from).prefix(10)) }
        if let to { terms.append("before:" + WireTimestamp.iso8601String(to).prefix(10)) }
        let request = request(
            path: "/rss/search", edition: edition,
            extra: [URLQueryItem(name: "q", value: terms.joined(separator: " "))])
        let fetched = try await fetcher.fetch(request) { response in
            try Self.articles(from: response, edition: edition, country: edition.gl.lowercased())
        }
        return ArticleBatch(
            answer: fetched.value, page: page, order: sortBy == .published ? .published : .provider,
            freshness: fetched.freshness)
    }

    private func request(path: String, edition: GoogleNewsEdition, extra: [URLQueryItem] = []) -> ProviderRequest {
        ProviderRequest(
            provider: provider, baseURL: baseURL, path: path,
            query: extra + [
                URLQueryItem(name: "hl", value: edition.hl), URLQueryItem(name: "gl", value: edition.gl),
                URLQueryItem(name: "ceid", value: edition.ceid),
            ],
            apiKey: nil)
    }

    static func articles(from response: HTTPResponse, edition: GoogleNewsEdition, country: String) throws -> [Article] {
        if response.url.path.hasPrefix("/rss/unsupported") {
            throw HeadlineError.editionUnsupported(country: country, edition: edition.ceid)
        }
        guard response.isSuccess else { throw response.failure(.googleNews, key: nil) }
        return try RSSFeed.items(from: response.body, provider: .googleNews).compactMap(article)
    }

    /// An item as an article; `nil` when it lacks a title or a usable link.
    static func article(from item: RSSItem) -> Article? {
        guard let url = Article.webURL(item.link) else { return nil }
        let (headline, publisher) = splitTitle(item.title, source: item.sourceName)
        guard !headline.isEmpty else { return nil }
        let site = Article.webURL(item.sourceURL)
        return Article(
            title: headline, sourceName: item.sourceName.isEmpty ? publisher : item.sourceName,
            url: url, publishedAt: WireTimestamp.rfc2822(item.pubDate), provider: .googleNews, sourceURL: site)
    }

    /// Google titles read "Headline - Publisher". The publisher suffix is removed when it
    /// matches `<source>`; otherwise the title is split on its last " - ".
    static func splitTitle(_ title: String, source: String) -> (headline: String, publisher: String?) {
        let headline = Article.headline(title, publisher: source)
        if headline != title { return (headline, source) }
        guard let dash = title.range(of: " - ", options: .backwards) else { return (title, nil) }
        let publisher = String(title[dash.upperBound...]).trimmingCharacters(in: .whitespaces)
        return (String(title[..<dash.lowerBound]), publisher.isEmpty ? nil : publisher)
    }
}

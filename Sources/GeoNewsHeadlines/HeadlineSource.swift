import Foundation

/// How search results are ordered.
public enum SearchSort: String, Codable, Sendable, CaseIterable {
    /// Newest first.
    case published
    /// The provider's relevance ranking.
    case relevance
    /// The provider's popularity ranking (NewsAPI only).
    case popularity
}

/// One provider's answer.
public struct ArticleBatch: Sendable {
    public var articles: [Article]
    public var freshness: Freshness
    /// Why the batch is empty when the provider is known to return nothing for such a request
    /// (NewsAPI outside `us`).
    public var note: String?

    public init(articles: [Article], freshness: Freshness = .network, note: String? = nil) {
        self.articles = articles
        self.freshness = freshness
        self.note = note
    }
}

/// A news publisher as NewsAPI lists it (`/v2/top-headlines/sources`).
public struct NewsSource: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var description: String?
    public var url: String?
    public var category: String?
    public var language: String?
    public var country: String?
}

/// A news provider behind one small adapter. Each method throws `HeadlineError`.
public protocol HeadlineSource: Sendable {
    var provider: NewsProvider { get }

    /// One page of the top headlines of `country` (lowercase ISO 3166-1 alpha-2), duplicates
    /// dropped, in `order`. Throws `HeadlineError.pageOutOfReach` for a page the provider
    /// cannot reach.
    func topHeadlines(
        country: String, category: HeadlineCategory?, language: String?, page: ArticlePage,
        order: HeadlineOrder
    ) async throws -> ArticleBatch

    /// One page of the articles matching `query`, published between `from` and `to` when given.
    func search(
        query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort,
        page: ArticlePage
    ) async throws -> ArticleBatch

    /// The publishers the provider lists, filtered by the given values.
    func sources(country: String?, category: HeadlineCategory?, language: String?) async throws -> [NewsSource]

    /// One page of news about a town or a region of `country` (lowercase ISO code), found by
    /// its name as one quoted phrase. By default the provider's search in `language`; Google
    /// News and GDELT search the country's own edition or sources.
    func localHeadlines(name: String, country: String, language: String?, page: ArticlePage) async throws -> ArticleBatch
}

extension HeadlineSource {
    public func search(
        query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort,
        page: ArticlePage
    ) async throws -> ArticleBatch {
        throw HeadlineError.unsupported(provider, operation: "search")
    }

    public func sources(country: String?, category: HeadlineCategory?, language: String?) async throws -> [NewsSource] {
        throw HeadlineError.unsupported(provider, operation: "listing sources")
    }
}

extension HTTPResponse {
    /// The error for a non-2xx answer whose body the provider's own error format did not
    /// explain: `rateLimited` for 429, `httpStatus` otherwise, with the body's first line
    /// (at most 200 characters, key redacted) as the message.
    func failure(_ provider: NewsProvider, key: APIKey?, message: String? = nil) -> HeadlineError {
        let text =
            message
            ?? String(decoding: body.prefix(200), as: UTF8.self)
            .split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
        let redacted = text.flatMap { $0.isEmpty ? nil : (key?.redacting($0) ?? $0) }
        if status == 429 { return .rateLimited(provider, retryAfter: retryAfter(), message: redacted) }
        return .httpStatus(provider, status: status, message: redacted)
    }
}

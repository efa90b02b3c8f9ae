import Foundation

/// How headlines are ordered.
public enum HeadlineOrder: String, Codable, Sendable, CaseIterable {
    /// The provider's own ranking (Google News' and GNews' front pages), or newest first for a
    /// provider that does not rank (NewsAPI, GDELT).
    case provider
    /// Newest first, whatever the provider; undated articles last.
    case published
}

/// One page of a provider's answer: pages are numbered from 1 and hold `size` articles.
public struct ArticlePage: Sendable, Equatable {
    /// 1 for the first page.
    public var number: Int
    /// Articles per page (the `--limit`).
    public var size: Int

    public init(number: Int = 1, size: Int) {
        self.number = number
        self.size = size
    }

    /// Articles before this page.
    public var offset: Int { (number - 1) * size }
    /// Articles a provider must deliver to fill this page.
    public var reach: Int { number * size }

    /// This page of `articles` (the provider's whole answer, in order).
    func slice(_ articles: [Article]) -> [Article] {
        guard offset < articles.count else { return [] }
        return Array(articles[offset..<Swift.min(articles.count, reach)])
    }

    /// Throws `HeadlineError.pageOutOfReach` when `provider` cannot deliver this page because it
    /// returns at most `reachable` articles for a request.
    func check(_ provider: NewsProvider, reachable: Int) throws {
        guard reach <= reachable else {
            throw HeadlineError.pageOutOfReach(provider, page: number, limit: size, reachable: reachable)
        }
    }
}

extension ArticleBatch {
    /// A page cut from a provider's whole answer: duplicates dropped, ordered, then sliced. When
    /// the page starts past the last article, the batch is empty and its note says how many there were.
    init(answer articles: [Article], page: ArticlePage, order: HeadlineOrder, freshness: Freshness) {
        let unique = articles.withoutDuplicates()
        let ordered = order == .published ? unique.sortedNewestFirst() : unique
        let slice = page.slice(ordered)
        let note =
            slice.isEmpty && !ordered.isEmpty
            ? "the answer held \(ordered.count) articles; page \(page.number) of \(page.size) starts after them" : nil
        self.init(articles: slice, freshness: freshness, note: note)
    }
}

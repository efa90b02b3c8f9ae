import Foundation

/// What one provider did for a request.
public struct ProviderAttempt: Sendable, Equatable, Codable {
    public enum Outcome: Sendable, Equatable, Codable {
        /// Answered with this many articles.
        case served(count: Int)
        /// Answered with no articles; the note says why when that is known.
        case empty(note: String?)
        /// Failed with this one-line message.
        case failed(message: String)
    }

    public var provider: NewsProvider
    public var outcome: Outcome

    /// "Google News: 5 articles", "NewsAPI: no articles (…)", "GNews: <error>".
    public var summary: String {
        switch outcome {
        case .served(let count): return "\(provider): \(count) articles"
        case .empty(let note): return "\(provider): no articles" + (note.map { " (\($0))" } ?? "")
        case .failed(let message): return message.hasPrefix(provider.displayName) ? message : "\(provider): \(message)"
        }
    }
}

/// Providers asked in order: when one fails or has no articles, the next is tried. The first
/// non-empty answer wins and names its provider.
public struct ProviderChain: Sendable {
    public let sources: [any HeadlineSource]

    public init(sources: [any HeadlineSource]) {
        self.sources = sources
    }

    /// The outcome of running the chain.
    public struct Answer: Sendable {
        /// The provider that served `batch`; `nil` when none had articles.
        public var provider: NewsProvider?
        public var batch: ArticleBatch?
        public var attempts: [ProviderAttempt]
        /// The errors met, in provider order.
        public var errors: [HeadlineError]
    }

    /// Page `page` (from 1) of `limit` headlines of `country`, in `order`, from the first provider
    /// that has any. A provider that cannot reach the page fails and the next is asked.
    public func topHeadlines(
        country: String, category: HeadlineCategory?, language: String?, limit: Int,
        page: Int = 1, order: HeadlineOrder = .provider
    ) async -> Answer {
        let page = ArticlePage(number: page, size: limit)
        return await run {
            try await $0.topHeadlines(country: country, category: category, language: language, page: page, order: order)
        }
    }

    /// Page `page` (from 1) of `limit` articles matching `query`, from the first provider that has any.
    public func search(
        query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort, limit: Int,
        page: Int = 1
    ) async -> Answer {
        let page = ArticlePage(number: page, size: limit)
        return await run { try await $0.search(query: query, language: language, from: from, to: to, sortBy: sortBy, page: page) }
    }

    func run(_ ask: (any HeadlineSource) async throws -> ArticleBatch) async -> Answer {
        var answer = Answer(attempts: [], errors: [])
        for source in sources {
            do {
                let batch = try await ask(source)
                if batch.articles.isEmpty {
                    answer.attempts.append(ProviderAttempt(provider: source.provider, outcome: .empty(note: batch.note)))
                    continue
                }
                answer.attempts.append(ProviderAttempt(provider: source.provider, outcome: .served(count: batch.articles.count)))
                answer.provider = source.provider
                answer.batch = batch
                return answer
            } catch {
                let failure = error as? HeadlineError ?? .network(source.provider, reason: "unexpected \(type(of: error))")
                answer.errors.append(failure)
                answer.attempts.append(ProviderAttempt(provider: source.provider, outcome: .failed(message: failure.message)))
            }
        }
        return answer
    }
}

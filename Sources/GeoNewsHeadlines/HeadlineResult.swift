import Foundation

/// The answer to a headline or search request, ready to print or to embed in JSON.
///
/// JSON form (the `headlines` member of `geonews --json`):
/// `{"provider": "google-news", "country": "fr", "articles": [...], "error": null}`, plus
/// `category`, `query` and `warning` when set, and for an answer that came from the cache rather
/// than the network `cacheAgeSeconds` (whole seconds since the provider gave it) and `stale`
/// (`true` when it is older than the cache's lifetime and was served because the providers
/// failed, then with `staleReason`, the failure's one-line message). `provider` is `null` and
/// `error` a one-line reason when no provider had articles.
public struct HeadlineResult: Sendable, Codable {
    /// The provider that served `articles`; `nil` on failure.
    public var provider: NewsProvider?
    /// Lowercase country code of a headline request; `nil` for a search.
    public var country: String?
    public var category: HeadlineCategory?
    /// The search terms of a search; `nil` for headlines.
    public var query: String?
    public var articles: [Article]
    /// Why there are no articles, in one line; `nil` on success.
    public var error: String?
    /// Something the user should know about a successful answer (it came from a stale cache).
    public var warning: String?
    /// What each provider did, in order.
    public var attempts: [ProviderAttempt]
    /// How the failure should be treated (exit code); `nil` on success.
    public var errorKind: HeadlineError.Kind?
    public var freshness: Freshness?

    private enum CodingKeys: String, CodingKey {
        case provider, country, category, query, articles, error, warning, cacheAgeSeconds, stale, staleReason
    }

    /// Seconds since the provider gave this answer, when it came from the cache; `nil` when it
    /// was fetched just now or there is none.
    public var cacheAge: Double? {
        switch freshness {
        case .cached(let age)?, .stale(let age, _)?: return age
        case .network?, nil: return nil
        }
    }

    /// Whether the answer is older than the cache's lifetime, served because the providers failed.
    public var isStale: Bool {
        if case .stale? = freshness { return true }
        return false
    }

    init(country: String?, category: HeadlineCategory?, query: String?, answer: ProviderChain.Answer, subject: String) {
        self.country = country
        self.category = category
        self.query = query
        provider = answer.provider
        articles = answer.batch?.articles ?? []
        attempts = answer.attempts
        freshness = answer.batch?.freshness
        warning = answer.batch?.freshness.warning
        if answer.provider == nil {
            let details = answer.attempts.map(\.summary).joined(separator: "; ")
            error =
                answer.errors.isEmpty
                ? "no provider had \(subject)" + (details.isEmpty ? "" : " (\(details))")
                : "no \(subject): \(details)"
            errorKind = Self.kind(of: answer.errors)
        }
    }

    /// A result for a request refused before any provider was asked (also for a service that
    /// could not be set up, so that callers report every failure the same way).
    public init(country: String?, category: HeadlineCategory?, query: String?, rejected: HeadlineError) {
        self.country = country
        self.category = category
        self.query = query
        articles = []
        attempts = []
        error = rejected.message
        errorKind = rejected.kind
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        provider = try c.decodeIfPresent(NewsProvider.self, forKey: .provider)
        country = try c.decodeIfPresent(String.self, forKey: .country)
        category = try c.decodeIfPresent(HeadlineCategory.self, forKey: .category)
        query = try c.decodeIfPresent(String.self, forKey: .query)
        articles = try c.decode([Article].self, forKey: .articles)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        warning = try c.decodeIfPresent(String.self, forKey: .warning)
        attempts = []
        if let age = try c.decodeIfPresent(Double.self, forKey: .cacheAgeSeconds) {
            freshness =
                try c.decodeIfPresent(Bool.self, forKey: .stale) == true
                ? .stale(age: age, reason: try c.decodeIfPresent(String.self, forKey: .staleReason) ?? "") : .cached(age: age)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(provider, forKey: .provider)
        try c.encodeIfPresent(country, forKey: .country)
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(query, forKey: .query)
        try c.encode(articles, forKey: .articles)
        try c.encode(error, forKey: .error)
        try c.encodeIfPresent(warning, forKey: .warning)
        if let cacheAge {
            try c.encode(Int(cacheAge.rounded(.down)), forKey: .cacheAgeSeconds)
            try c.encode(isStale, forKey: .stale)
        }
        if case .stale(_, let reason)? = freshness { try c.encode(reason, forKey: .staleReason) }
    }

    /// Configuration when every provider failed for a key or config reason (fixing it is the
    /// way out), bad input when any provider rejected a value, otherwise unavailable.
    static func kind(of errors: [HeadlineError]) -> HeadlineError.Kind {
        let kinds = errors.map(\.kind)
        if !kinds.isEmpty, kinds.allSatisfy({ $0 == .configuration }) { return .configuration }
        if kinds.contains(.badInput) { return .badInput }
        return .unavailable
    }
}

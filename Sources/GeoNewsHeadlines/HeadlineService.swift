import Foundation

/// The one entry point: headlines, search and sources through the configured provider chain.
///
/// Polite by construction: identical requests on their way at once share one upstream fetch,
/// and each provider's requests are spaced by its `RateLimit` (GDELT: one per 5 s). That state
/// lives in the service, so build one service and share it (it is `Sendable`; copies share it
/// too) between all the callers of a process, as `geonews serve` does.
///
/// ```swift
/// let service = try HeadlineService(configuration: .fromEnvironment())
/// let result = await service.topHeadlines(country: "fr", category: nil, limit: 5)
/// if let reason = result.error { print(reason) }   // one line, names the provider
/// ```
public struct HeadlineService: Sendable {
    public let configuration: HeadlineConfiguration
    public let editions: GoogleNewsEditionTable
    public let chain: ProviderChain
    /// Loaded when GDELT is in the provider order.
    public let gdeltTable: GDELTCountryTable?
    private let newsAPI: NewsAPI?

    /// Loads the edition table (and the GDELT table when GDELT is configured) and builds one
    /// adapter per configured provider. Throws `HeadlineError.editionTable`, `.gdeltTable` or
    /// `.missingKey` (a configured provider lacks its key).
    public init(configuration: HeadlineConfiguration) throws {
        self.configuration = configuration
        let editions = try GoogleNewsEditionTable.load(from: configuration.editionTableURL)
        self.editions = editions
        let gdeltTable =
            configuration.providers.contains(.gdelt)
            ? try GDELTCountryTable.load(from: configuration.gdeltTableURL) : nil
        self.gdeltTable = gdeltTable
        let fetcher = ProviderFetcher(
            transport: HTTPTransport(timeouts: configuration.timeouts, retry: configuration.retry),
            cache: configuration.cache, rateLimits: configuration.rateLimits)
        var newsAPI: NewsAPI?
        if let key = configuration.newsAPIKey {
            newsAPI = NewsAPI(fetcher: fetcher, baseURL: configuration.baseURL(for: .newsAPI), key: key)
        }
        self.newsAPI = newsAPI
        chain = ProviderChain(
            sources: try configuration.providers.map { provider -> any HeadlineSource in
                switch provider {
                case .googleNews:
                    return GoogleNewsRSS(fetcher: fetcher, baseURL: configuration.baseURL(for: .googleNews), editions: editions)
                case .newsAPI:
                    guard let newsAPI else { throw HeadlineError.missingKey(.newsAPI) }
                    return newsAPI
                case .gnews:
                    guard let key = configuration.gnewsKey else { throw HeadlineError.missingKey(.gnews) }
                    return GNews(fetcher: fetcher, baseURL: configuration.baseURL(for: .gnews), key: key)
                case .gdelt:
                    guard let gdeltTable else {
                        throw HeadlineError.gdeltTable(path: configuration.gdeltTableURL.path, detail: "not loaded")
                    }
                    return GDELT(fetcher: fetcher, baseURL: configuration.baseURL(for: .gdelt), table: gdeltTable)
                }
            })
    }

    /// Top headlines of `country`, from the first provider in the chain that has any.
    ///
    /// - Parameters:
    ///   - country: ISO 3166-1 alpha-2 code of one of the 54 news countries, any case.
    ///   - category: a topic; `nil` or `.general` for the front page.
    ///   - language: picks among a country's editions (e.g. "fr" for Canada); `nil` for the default.
    ///   - limit: 1…100 articles per page.
    ///   - page: 1 for the first `limit` articles, 2 for the next, …; a provider that cannot reach
    ///     the page fails with a message saying how far it reaches, and the next is asked.
    ///   - order: `.provider` keeps the provider's ranking; `.published` is newest first.
    /// - Returns: never throws; a failure is a result with `error` set and `errorKind` telling
    ///   whether the input (unknown country, bad limit), the configuration or the providers failed.
    ///   Duplicates (same normalised title and publisher) are dropped.
    public func topHeadlines(
        country: String, category: HeadlineCategory? = nil, language: String? = nil,
        limit: Int = 5, page: Int = 1, order: HeadlineOrder = .provider
    ) async -> HeadlineResult {
        let code = country.lowercased()
        do {
            guard editions.countries[code] != nil else { throw HeadlineError.unknownCountry(country) }
            try Self.check(limit: limit)
            try Self.check(page: page)
            if let language { try Self.check(language: language) }
        } catch let error as HeadlineError {
            return HeadlineResult(country: code, category: category, query: nil, rejected: error)
        } catch {
            preconditionFailure("checks throw HeadlineError only")
        }
        let answer = await chain.topHeadlines(
            country: code, category: category, language: language, limit: limit,
            page: page, order: order)
        return HeadlineResult(country: code, category: category, query: nil, answer: answer, subject: "headlines for \(code)")
    }

    /// Articles matching `query` from the first provider that supports the request and has any.
    ///
    /// - Parameters:
    ///   - query: non-blank search terms.
    ///   - language: two-letter code; one of NewsAPI's 14 or a language with a Google News
    ///     search edition. `nil` searches English on Google News and all languages on NewsAPI.
    ///   - from, to: publication bounds (Google News rounds them to whole UTC days).
    ///   - sortBy: `.popularity` only on NewsAPI; without NewsAPI among the providers the
    ///     result is rejected as bad input naming `sort`.
    ///   - limit: 1…100 articles per page.
    ///   - page: 1 for the first `limit` articles, 2 for the next, …
    public func search(
        _ query: String, language: String? = nil, from: Date? = nil, to: Date? = nil,
        sortBy: SearchSort = .published, limit: Int = 20, page: Int = 1
    ) async -> HeadlineResult {
        let terms = query.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            guard !terms.isEmpty else { throw HeadlineError.invalidInput(field: "query", value: query, reason: "is empty") }
            try Self.check(limit: limit)
            try Self.check(page: page)
            if let language {
                try Self.check(language: language)
                guard
                    NewsAPI.languages.contains(language.lowercased()) || editions.searchEdition(language: language) != nil
                        || gdeltTable?.languages[language.lowercased()] != nil
                else {
                    throw HeadlineError.invalidInput(
                        field: "language", value: language, reason: "no provider searches in it; use one of \(searchLanguages())")
                }
            }
            if let from, let to, from > to {
                throw HeadlineError.invalidInput(field: "from", value: WireTimestamp.iso8601String(from), reason: "is after --to")
            }
            // Every other provider refuses it, so without NewsAPI the chain could only fail:
            // a request that cannot be met, not an outage.
            if sortBy == .popularity, !configuration.providers.contains(.newsAPI) {
                let names = configuration.providers.map(\.rawValue).joined(separator: ", ")
                throw HeadlineError.invalidInput(
                    field: "sort", value: sortBy.rawValue,
                    reason:
                        "only NewsAPI sorts by popularity and the providers are \(names); sort by published or relevance, or add newsapi with a key"
                )
            }
        } catch let error as HeadlineError {
            return HeadlineResult(country: nil, category: nil, query: terms, rejected: error)
        } catch {
            preconditionFailure("checks throw HeadlineError only")
        }
        let answer = await chain.search(
            query: terms, language: language, from: from, to: to, sortBy: sortBy, limit: limit,
            page: page)
        return HeadlineResult(country: nil, category: nil, query: terms, answer: answer, subject: "articles for \"\(terms)\"")
    }

    /// NewsAPI's publishers. Throws `HeadlineError.missingKey(.newsAPI)` when no NewsAPI key is
    /// configured (no other provider lists sources), and NewsAPI's own errors otherwise.
    public func sources(country: String? = nil, category: HeadlineCategory? = nil, language: String? = nil) async throws -> [NewsSource] {
        guard let newsAPI else { throw HeadlineError.missingKey(.newsAPI) }
        if let country, country.count != 2 || !country.allSatisfy(\.isLetter) {
            throw HeadlineError.unknownCountry(country)
        }
        if let language { try Self.check(language: language) }
        return try await newsAPI.sources(country: country, category: category, language: language)
    }

    /// A search bound from `2024-05-01` (midnight UTC) or a full ISO 8601 timestamp; `nil` otherwise.
    public static func searchDate(_ text: String) -> Date? {
        WireTimestamp.iso8601(text.count == 10 ? text + "T00:00:00Z" : text)
    }

    private static func check(limit: Int) throws {
        guard (1...100).contains(limit) else {
            throw HeadlineError.invalidInput(field: "limit", value: String(limit), reason: "must be 1…100")
        }
    }

    /// Pages 1…1000; how deep each provider reaches is its own check.
    private static func check(page: Int) throws {
        guard (1...1000).contains(page) else {
            throw HeadlineError.invalidInput(field: "page", value: String(page), reason: "must be 1…1000")
        }
    }

    private static func check(language: String) throws {
        guard language.count == 2, language.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw HeadlineError.invalidInput(field: "language", value: language, reason: "must be a two-letter code such as fr")
        }
    }

    private func searchLanguages() -> String {
        NewsAPI.languages.union(editions.searchEditions.keys).union(gdeltTable.map { Array($0.languages.keys) } ?? []).sorted().joined(
            separator: " ")
    }
}

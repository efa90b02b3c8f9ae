import Foundation

/// The level a local article was found at: the town's name, the region's, or the country's
/// front page.
public enum LocalScope: String, Codable, Sendable, CaseIterable {
    case town, region, country
}

/// Where local headlines are asked for: a news country and, for the searches, the names of the
/// town and the region as the country's edition writes them ("Lyon", "Auvergne-Rhône-Alpes").
public struct LocalArea: Sendable, Hashable, Codable {
    /// Lowercase ISO 3166-1 alpha-2 code of one of the 54 news countries: its edition is searched
    /// and its front page ends the list.
    public var country: String
    public var region: String?
    public var town: String?

    public init(country: String, region: String? = nil, town: String? = nil) {
        self.country = country.lowercased()
        self.region = region
        self.town = town
    }

    /// The searches to run before the front page, town first; blank names are left out.
    public var searches: [(scope: LocalScope, name: String)] {
        [(LocalScope.town, town), (.region, region)].compactMap { scope, name in
            guard let name = name.map(LocalQuery.cleaned), !name.isEmpty else { return nil }
            return (scope, name)
        }
    }
}

/// The provider query for a name: the name as one quoted phrase, so that "Saint-Étienne" is
/// not two words and "New York" is not news about York. Quotes inside the name are dropped
/// (the phrase could not hold them) and runs of spaces become one; the URL encoding of the
/// whole query (accents, apostrophes, non-Latin script) is left to the request.
public enum LocalQuery {
    /// Longest name sent, in characters; a longer one is cut at a word.
    public static let longestName = 100

    public static func cleaned(_ name: String) -> String {
        let words = name.replacingOccurrences(of: "\"", with: " ").split(whereSeparator: \.isWhitespace)
        var text = words.joined(separator: " ")
        if text.count > longestName {
            text = String(text.prefix(longestName))
            if let space = text.lastIndex(of: " ") { text = String(text[..<space]) }
        }
        return text
    }

    /// `"Saint-Étienne"`.
    public static func phrase(_ name: String) -> String { "\"" + cleaned(name) + "\"" }
}

/// An article of a local answer, with the level it was found at. JSON: the article's keys
/// (``Article``) plus `scope` (`town`, `region` or `country`).
public struct ScopedArticle: Sendable, Hashable, Codable {
    public var article: Article
    public var scope: LocalScope

    public init(article: Article, scope: LocalScope) {
        self.article = article
        self.scope = scope
    }

    private enum CodingKeys: String, CodingKey { case scope }

    public init(from decoder: any Decoder) throws {
        article = try Article(from: decoder)
        scope = try decoder.container(keyedBy: CodingKeys.self).decode(LocalScope.self, forKey: .scope)
    }

    public func encode(to encoder: any Encoder) throws {
        try article.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(scope, forKey: .scope)
    }
}

/// What one level of a local answer gave: the name asked, the provider that answered, how many
/// of its articles were new to the list, and, when it gave none, why.
public struct LocalScopeReport: Sendable, Hashable, Codable {
    public var scope: LocalScope
    /// The name searched (the country's code for the front page).
    public var name: String
    /// The provider that answered; `nil` when none had articles.
    public var provider: NewsProvider?
    /// Articles this level added to the list (duplicates of earlier levels left out).
    public var articles: Int
    /// Why this level added nothing, in one line ("Google News: no articles; GDELT: …"); `nil`
    /// when it added articles or was not needed.
    public var note: String?
}

/// Local headlines: the town's articles first, then the region's where the town has too few,
/// then the country's front page, each article marked with its scope.
///
/// JSON: `{"country", "town", "region", "articles": [{…, "scope"}], "scopes": [{"scope",
/// "name", "provider", "articles", "note"}], "error"}`, plus `warning` when an answer came from a
/// stale cache. `error` is a one-line reason, and `articles` empty, only when no level had any.
public struct LocalHeadlineResult: Sendable, Codable {
    public var country: String
    public var town: String?
    public var region: String?
    public var articles: [ScopedArticle]
    /// Each level asked, in order.
    public var scopes: [LocalScopeReport]
    public var error: String?
    public var warning: String?
    /// How the failure should be treated (exit code); `nil` on success.
    public var errorKind: HeadlineError.Kind?
    /// Whether a provider failed (rather than answered with no articles) at some level: an
    /// answer with no articles is then an outage, not a true "no news".
    public var providersFailed = false

    private enum CodingKeys: String, CodingKey {
        case country, town, region, articles, scopes, error, warning
    }

    init(area: LocalArea) {
        country = area.country
        town = area.town
        region = area.region
        articles = []
        scopes = []
    }

    init(area: LocalArea, rejected: HeadlineError) {
        self.init(area: area)
        error = rejected.message
        errorKind = rejected.kind
        providersFailed = true
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        country = try c.decode(String.self, forKey: .country)
        town = try c.decodeIfPresent(String.self, forKey: .town)
        region = try c.decodeIfPresent(String.self, forKey: .region)
        articles = try c.decode([ScopedArticle].self, forKey: .articles)
        scopes = try c.decodeIfPresent([LocalScopeReport].self, forKey: .scopes) ?? []
        error = try c.decodeIfPresent(String.self, forKey: .error)
        warning = try c.decodeIfPresent(String.self, forKey: .warning)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(country, forKey: .country)
        try c.encode(town, forKey: .town)
        try c.encode(region, forKey: .region)
        try c.encode(articles, forKey: .articles)
        try c.encode(scopes, forKey: .scopes)
        try c.encode(error, forKey: .error)
        try c.encodeIfPresent(warning, forKey: .warning)
    }

    /// The one-line account of the levels that gave nothing, for a reader of a successful answer:
    /// "no articles about Lyon (Google News: no articles); the region's and the country's
    /// follow". `nil` when no level came up empty.
    public var fallbackNote: String? {
        guard error == nil else { return nil }
        let empty = scopes.filter { $0.articles == 0 && $0.scope != .country }
        let filled = scopes.filter { $0.articles > 0 }.map { "the \($0.scope.rawValue)'s" }
        guard !empty.isEmpty, !filled.isEmpty else { return nil }
        let names = empty.map { report in report.name + (report.note.map { " (\($0))" } ?? "") }
        return "no articles about " + names.joined(separator: " or ") + "; " + filled.joined(separator: " and ")
            + (filled.count == 1 ? " follows" : " follow")
    }
}

extension HeadlineSource {
    /// The default: the provider's search for the quoted name in `language`, newest first.
    public func localHeadlines(
        name: String, country: String, language: String?, page: ArticlePage
    ) async throws
        -> ArticleBatch
    {
        try await search(query: LocalQuery.phrase(name), language: language, from: nil, to: nil, sortBy: .published, page: page)
    }
}

extension GoogleNewsRSS {
    /// How far back a local search reaches (Google's `when:` operator).
    static let localWindow = "7d"

    /// `/rss/search?q="Lyon" when:7d` in the country's edition (`hl`, `gl`, `ceid` of `country`,
    /// in `language` where it has several), newest first.
    public func localHeadlines(name: String, country: String, language: String?, page: ArticlePage) async throws -> ArticleBatch {
        try page.check(provider, reachable: Self.largestAnswer)
        guard let edition = editions.edition(country: country, language: language) else {
            throw HeadlineError.unknownCountry(country)
        }
        let request = ProviderRequest(
            provider: provider, baseURL: baseURL, path: "/rss/search",
            query: [
                URLQueryItem(name: "q", value: LocalQuery.phrase(name) + " when:" + Self.localWindow),
                URLQueryItem(name: "hl", value: edition.hl), URLQueryItem(name: "gl", value: edition.gl),
                URLQueryItem(name: "ceid", value: edition.ceid),
            ],
            apiKey: nil)
        let fetched = try await fetcher.fetch(request) { response in
            try Self.articles(from: response, edition: edition, country: country)
        }
        return ArticleBatch(answer: fetched.value, page: page, order: .published, freshness: fetched.freshness)
    }
}

extension GDELT {
    /// How far back a local search reaches (GDELT's `timespan`).
    static let localTimespan = "7d"

    /// `query="Lyon" sourcecountry:FR` over the last week, newest first. A search never waits
    /// for GDELT's turn (one request per 5 s): when GDELT is not free, the next provider or the
    /// next level is asked at once.
    public func localHeadlines(name: String, country: String, language: String?, page: ArticlePage) async throws -> ArticleBatch {
        guard let entry = table.countries[country.lowercased()] else { throw HeadlineError.unknownCountry(country) }
        try page.check(provider, reachable: Self.largestAnswer)
        let fetched = try await articles(
            terms: [LocalQuery.phrase(name), "sourcecountry:\(entry.fips)"],
            extra: [URLQueryItem(name: "timespan", value: Self.localTimespan)], sort: "datedesc", page: page, waits: false)
        return ArticleBatch(answer: fetched.value, page: page, order: .published, freshness: fetched.freshness)
    }
}

extension ProviderChain {
    /// Page `page` of `limit` articles about `name` in `country`, from the first provider that
    /// has any.
    public func localHeadlines(name: String, country: String, language: String?, limit: Int, page: Int = 1) async -> Answer {
        let page = ArticlePage(number: page, size: limit)
        return await run { try await $0.localHeadlines(name: name, country: country, language: language, page: page) }
    }
}

extension HeadlineService {
    /// Local headlines of `area`: up to `limit` articles about the town, then about the region
    /// where the town had fewer, then the country's front page for the rest, each marked with its
    /// scope; an article already listed is not listed again.
    ///
    /// A level that finds nothing is noted in its ``LocalScopeReport`` and the next is asked: the
    /// answer fails (with `error`) only when no level had any article.
    ///
    /// - Parameters:
    ///   - language: the edition's language where the country has several; the names in `area`
    ///     should be in it.
    ///   - limit: 1…100 articles.
    public func localHeadlines(area: LocalArea, language: String? = nil, limit: Int = 5) async -> LocalHeadlineResult {
        do {
            guard editions.countries[area.country] != nil else { throw HeadlineError.unknownCountry(area.country) }
            guard (1...100).contains(limit) else {
                throw HeadlineError.invalidInput(field: "limit", value: String(limit), reason: "must be 1…100")
            }
            if let language, language.count != 2 || !language.allSatisfy({ $0.isASCII && $0.isLetter }) {
                throw HeadlineError.invalidInput(field: "language", value: language, reason: "must be a two-letter code such as fr")
            }
        } catch let error as HeadlineError {
            return LocalHeadlineResult(area: area, rejected: error)
        } catch {
            preconditionFailure("checks throw HeadlineError only")
        }
        var result = LocalHeadlineResult(area: area)
        var seen = Set<String>()
        var errors: [HeadlineError] = []
        var warnings: [String] = []
        func take(_ answer: ProviderChain.Answer, scope: LocalScope, name: String) {
            errors += answer.errors
            if let warning = answer.batch?.freshness.warning { warnings.append(warning) }
            var added = 0
            for article in answer.batch?.articles ?? [] where result.articles.count < limit {
                guard seen.insert(article.duplicateKey).inserted else { continue }
                result.articles.append(ScopedArticle(article: article, scope: scope))
                added += 1
            }
            let details = answer.attempts.map(\.summary).joined(separator: "; ")
            let note: String? =
                added > 0 ? nil : answer.provider == nil ? (details.isEmpty ? "no provider" : details) : "only articles already listed"
            result.scopes.append(LocalScopeReport(scope: scope, name: name, provider: answer.provider, articles: added, note: note))
        }
        for (scope, name) in area.searches where result.articles.count < limit {
            take(await chain.localHeadlines(name: name, country: area.country, language: language, limit: limit), scope: scope, name: name)
        }
        if result.articles.count < limit {
            let answer = await chain.topHeadlines(country: area.country, category: nil, language: language, limit: limit)
            take(answer, scope: .country, name: area.country)
        }
        result.warning = warnings.first
        if result.articles.isEmpty {
            let notes = result.scopes.map { $0.note ?? "no articles" }
            // Every level failing the same way (the network is down) is said once.
            let details =
                Set(notes).count == 1
                ? notes[0] : zip(result.scopes, notes).map { "\($0.name): \($1)" }.joined(separator: "; ")
            result.error = "no local or national headlines for \(area.country): \(details)"
            result.errorKind = HeadlineResult.kind(of: errors)
            result.providersFailed = !errors.isEmpty
        }
        return result
    }
}

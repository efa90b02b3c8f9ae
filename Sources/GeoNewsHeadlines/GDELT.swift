import Foundation

/// GDELT DOC 2.0 (`/api/v2/doc/doc?mode=artlist&format=json`), no key, every news country.
///
/// Headlines of a country are its last day of coverage, newest first:
/// `query=sourcecountry:AU` (FIPS 10-4, from `GDELTCountryTable`), plus `sourcelang:german`
/// for `--language de`, plus `(theme:… OR theme:…)` for a category. Search sends the terms as
/// given, with `startdatetime` / `enddatetime` for the date bounds. GDELT has no paging
/// parameter: a page is cut from one answer of `maxrecords` = page × limit, at most 250.
public struct GDELT: HeadlineSource {
    public let provider = NewsProvider.gdelt
    let fetcher: ProviderFetcher
    let baseURL: URL
    let table: GDELTCountryTable

    /// GDELT's `maxrecords` ceiling.
    static let largestAnswer = 250
    /// How far back headlines reach.
    static let headlineTimespan = "1d"

    /// The query clause for a category's GKG themes; `nil` for `general` or none.
    func themeClause(_ category: HeadlineCategory?) -> String? {
        guard let category, let themes = table.categoryThemes[category.rawValue], !themes.isEmpty else { return nil }
        let terms = themes.map { "theme:\($0)" }
        return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
    }

    public func topHeadlines(
        country: String, category: HeadlineCategory?, language: String?, page: ArticlePage,
        order: HeadlineOrder
    ) async throws -> ArticleBatch {
        guard let entry = table.countries[country.lowercased()] else { throw HeadlineError.unknownCountry(country) }
        try page.check(provider, reachable: Self.largestAnswer)
        var terms = ["sourcecountry:\(entry.fips)"]
        if let language { terms.append(try languageClause(language)) }
        if let clause = themeClause(category) { terms.append(clause) }
        let fetched = try await articles(
            terms: terms, extra: [URLQueryItem(name: "timespan", value: Self.headlineTimespan)],
            sort: "datedesc", page: page)
        return ArticleBatch(answer: fetched.value, page: page, order: order, freshness: fetched.freshness)
    }

    public func search(
        query: String, language: String?, from: Date?, to: Date?, sortBy: SearchSort,
        page: ArticlePage
    ) async throws -> ArticleBatch {
        guard sortBy != .popularity else { throw HeadlineError.unsupported(provider, operation: "sorting by popularity") }
        try page.check(provider, reachable: Self.largestAnswer)
        var terms = [query]
        if let language { terms.append(try languageClause(language)) }
        var extra: [URLQueryItem] = []
        if let from { extra.append(URLQueryItem(name: "startdatetime", value: WireTimestamp.gdeltQueryString(from))) }
        if let to { extra.append(URLQueryItem(name: "enddatetime", value: WireTimestamp.gdeltQueryString(to))) }
        let fetched = try await articles(terms: terms, extra: extra, sort: sortBy == .published ? "datedesc" : "hybridrel", page: page)
        return ArticleBatch(
            answer: fetched.value, page: page, order: sortBy == .published ? .published : .provider,
            freshness: fetched.freshness)
    }

    private func languageClause(_ code: String) throws -> String {
        guard let name = table.languages[code.lowercased()] else {
            throw HeadlineError.unsupported(provider, operation: "language \"\(code)\"")
        }
        return "sourcelang:" + name.lowercased().replacingOccurrences(of: " ", with: "")
    }

    func articles(
        terms: [String], extra: [URLQueryItem], sort: String, page: ArticlePage, waits: Bool = true
    ) async throws
        -> Fetched<[Article]>
    {
        let query =
            [
                URLQueryItem(name: "query", value: terms.joined(separator: " ")),
                URLQueryItem(name: "mode", value: "artlist"),
                URLQueryItem(name: "format", value: "json"),
                URLQueryItem(name: "maxrecords", value: String(page.reach)),
            ] + extra + [URLQueryItem(name: "sort", value: sort)]
        let request = ProviderRequest(provider: provider, baseURL: baseURL, path: "/api/v2/doc/doc", query: query, apiKey: nil)
        return try await fetcher.fetch(request, waits: waits) { [table] response in
            try GDELTWire.decode(response).compactMap { Self.article($0, table: table) }
        }
    }

    /// A wire article as an article; `nil` without a title or a web link (``Article/webURL(_:)``).
    static func article(_ wire: GDELTWire.WireArticle, table: GDELTCountryTable) -> Article? {
        guard let title = wire.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty,
            let url = Article.webURL(wire.url)
        else { return nil }
        let domain = wire.domain.flatMap { $0.isEmpty ? nil : $0 }
        return Article(
            title: title, sourceName: domain, url: url,
            imageURL: Article.webURL(wire.socialimage),
            publishedAt: wire.seendate.flatMap(WireTimestamp.gdelt), provider: .gdelt,
            sourceURL: domain.flatMap { URL(string: "https://\($0)") },
            language: wire.language.flatMap(table.languageCode))
    }
}

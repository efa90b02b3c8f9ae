import Foundation
import GeoNews
import Hummingbird

/// `GET /v1/headlines?country=&category=&language=&limit=` and
/// `GET /v1/search?q=&language=&from=&to=&sort=&limit=` through the provider chain and its
/// cache: 200 with the articles (stale ones, with a warning, `stale: true` and their
/// `cacheAgeSeconds`, when the providers fail and the cache has an answer; none, with `error`
/// saying so, when every provider answered with none), 400 for a bad value, 503 when the
/// providers are down and nothing is cached.
struct HeadlineRoutes {
    let state: ServerState

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/headlines") { request, _ in
            let query = request.parameters
            let given = [("country", "country"), ("lat", "lat and lon"), ("lon", "lat and lon"), ("region", "region")]
                .filter { query.value($0.0) != nil }.map(\.1)
            guard Set(given).count <= 1 else {
                throw Problem.badValue(given[0] == "country" ? "country" : "region", "give one of country, lat and lon, or region")
            }
            guard query.value("country") == nil, !given.isEmpty else { return try await countryHeadlines(request) }
            return try await localHeadlines(query)
        }
        routes.get("/v1/search") { request, _ in
            let query = try request.requiredQuery("q", "the search terms")
            let limit = try request.integerQuery("limit", in: 1...100, default: 20)
            let from = try request.query("from").map { try Self.date($0, parameter: "from") }
            let to = try request.query("to").map { try Self.date($0, parameter: "to") }
            let sort =
                try request.query("sort").map { text in
                    guard let sort = SearchSort(rawValue: text.lowercased()) else {
                        throw Problem.badValue(
                            "sort", "'\(text)' is not one of \(SearchSort.allCases.map(\.rawValue).joined(separator: " "))")
                    }
                    return sort
                } ?? .published
            let service = try state.headlineService()
            let result = await service.search(
                query, language: request.query("language"), from: from, to: to, sortBy: sort, limit: limit)
            return try Self.answer(
                result, cache: service.configuration.cache,
                field: ["language": "language", "from": "from", "page": "page", "sort": "sort"], otherwise: "q")
        }
    }

    /// `?country=`: the country's top headlines.
    private func countryHeadlines(_ request: Request) async throws -> Response {
        let country = try request.requiredQuery("country", "a news country's ISO code such as fr, or lat and lon, or region")
        let category = try request.query("category").map(Self.category)
        let limit = try request.integerQuery("limit", in: 1...100, default: 10)
        let service = try state.headlineService()
        let result = await service.topHeadlines(
            country: country, category: category, language: request.query("language"), limit: limit)
        return try Self.answer(
            result, cache: service.configuration.cache,
            field: ["language": "language", "page": "page"], otherwise: "country")
    }

    /// `?lat=&lon=` or `?region=`: local headlines, the town's, then the region's, then the
    /// country's front page, as `geonews headlines --near` and `--region` answer them.
    private func localHeadlines(_ query: QueryParameters) async throws -> Response {
        if query.value("category") != nil {
            throw Problem.badValue("category", "applies to country only (local headlines are searched by name)")
        }
        let limit = try query.integer("limit", in: 1...100, default: 10)
        let language = query.value("language")
        let service = try state.headlineService()
        let area: LocalArea
        if let code = query.value("region") {
            guard code.utf8.count <= 16, let region = state.regionCatalogue.region(code: code) else {
                throw Problem.badValue("region", "'\(code.prefix(40))' is not an ISO 3166-2 or GeoNames admin1 code of a known region")
            }
            let country = region.country.lowercased()
            guard service.editions.countries[country] != nil else {
                throw Problem.badValue("region", "'\(code)' (\(region.name)) is in \(country), which is not one of the 54 news countries")
            }
            area = LocalArea(country: country, region: region.name(in: service.editions.nameLanguage(country: country, language: language)))
        } else {
            let resolution = state.resolver.resolve(try query.coordinate())
            let suggested = resolution.suggestion.country
            let country = (suggested.iso2 ?? suggested.id).lowercased()
            let names = service.editions.nameLanguage(country: country, language: language)
            area = LocalArea(
                country: country, region: state.regions.region(for: resolution)?.region.name(in: names),
                town: state.places.town(for: resolution)?.place.name)
        }
        let result = await service.localHeadlines(area: area, language: language, limit: limit)
        if let error = result.error, result.articles.isEmpty, result.providersFailed {
            switch result.errorKind {
            case .badInput?: throw Problem.badValue(error.hasPrefix("language") ? "language" : "limit", error)
            case .configuration?: throw Problem(.serviceUnavailable, title: "Headlines not configured", detail: error)
            default:
                throw Problem(
                    .serviceUnavailable, title: "Headline providers unavailable", detail: "nothing is cached: \(error)",
                    headers: [.retryAfter: "60"])
            }
        }
        let fresh = result.error == nil && result.warning == nil
        let lifetime = Int(min(Self.longestClientLifetime, service.configuration.cache?.timeToLive ?? Self.longestClientLifetime))
        return try JSONResponse.encode(
            result, headers: [.cacheControl: fresh ? "public, max-age=\(lifetime), stale-if-error=86400" : "no-store"])
    }

    /// A `category` value, or 400 naming it.
    static func category(_ text: String) throws -> HeadlineCategory {
        guard let category = HeadlineCategory(rawValue: text.lowercased()) else {
            throw Problem.badValue(
                "category", "'\(text)' is not one of \(HeadlineCategory.allCases.map(\.rawValue).joined(separator: " "))")
        }
        return category
    }

    static func date(_ text: String, parameter: String) throws -> Date {
        guard let date = HeadlineService.searchDate(text) else {
            throw Problem.badValue(parameter, "'\(text)' is not a date such as 2026-11-01 or an ISO 8601 timestamp")
        }
        return date
    }

    /// The longest a client may keep a fresh answer, in seconds.
    static let longestClientLifetime = 300.0

    /// Fresh answers may be kept for what is left of their life in the server's cache (at most
    /// five minutes), so that a client never holds an answer the server would already refetch;
    /// stale and failed ones are not kept, since the next request may find the providers back.
    static func cacheControl(_ result: HeadlineResult, cache: ResponseCache? = nil) -> String {
        if result.error != nil || result.warning != nil || result.isStale { return "no-store" }
        let left = cache.map { $0.timeToLive - (result.cacheAge ?? 0) } ?? longestClientLifetime
        let seconds = Int(max(0, min(longestClientLifetime, left)).rounded(.down))
        return "public, max-age=\(seconds), stale-if-error=86400"
    }

    /// The result as JSON, or the problem its error kind calls for. `field` maps words of the
    /// library's message to the query parameter they came from; `otherwise` names the rest.
    static func answer(
        _ result: HeadlineResult, cache: ResponseCache?, field: [String: String],
        otherwise: String
    ) throws -> Response {
        if let error = result.error, result.articles.isEmpty, !everyProviderAnsweredEmpty(result) {
            switch result.errorKind {
            case .badInput?:
                // The library's message starts with the field it rejects ("sort \"popularity\": …").
                let name =
                    field.first { error.hasPrefix($0.key + " ") }?.value ?? field.first { error.contains($0.key) }?.value ?? otherwise
                throw Problem.badValue(name, error)
            case .configuration?:
                throw Problem(.serviceUnavailable, title: "Headlines not configured", detail: error)
            default:
                throw Problem(
                    .serviceUnavailable, title: "Headline providers unavailable",
                    detail:
                        "\(someProviderAnsweredEmpty(result) ? "no provider had articles" : "no provider answered") and nothing is cached: \(error)",
                    headers: [.retryAfter: "60"])
            }
        }
        return try JSONResponse.encode(result, headers: [.cacheControl: cacheControl(result, cache: cache)])
    }
}

/// Whether every provider was asked and answered, with no articles: a true answer (an edition
/// with no news in a category), not an outage.
private func everyProviderAnsweredEmpty(_ result: HeadlineResult) -> Bool {
    !result.attempts.isEmpty && result.attempts.allSatisfy(\.answeredEmpty)
}

private func someProviderAnsweredEmpty(_ result: HeadlineResult) -> Bool {
    result.attempts.contains(where: \.answeredEmpty)
}

extension ProviderAttempt {
    fileprivate var answeredEmpty: Bool {
        if case .empty = outcome { return true }
        return false
    }
}

extension ServerState {
    /// The configured provider chain, or 503 saying why there is none.
    func headlineService() throws -> HeadlineService {
        switch headlines {
        case .success(let service): return service
        case .failure(let error):
            throw Problem(.serviceUnavailable, title: "Headlines not configured", detail: error.reason)
        }
    }
}

import GeoNews
import GeoNewsStore
import Hummingbird

/// `GET /v1/settings` and `PUT /v1/settings` (replaces them whole) for the user of the bearer
/// token: favourite news country, news language, favourite categories and the language of
/// country names, each validated.
struct SettingsRoutes {
    let state: ServerState

    /// The wire form of the settings; absent or `null` fields are unset.
    struct Body: Codable {
        var newsCountry: String?
        var newsLanguage: String?
        var categories: [String]?
        var namesLanguage: String?
    }

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/settings") { request, _ in
            let user = try await state.authenticatedUser(request)
            return try JSONResponse.encode(
                Self.body(try await state.store.settings(user: user)),
                headers: [.cacheControl: "private, no-cache"])
        }
        routes.put("/v1/settings") { request, _ in
            let user = try await state.authenticatedUser(request)
            let body = try await request.decodeJSON(Body.self, limit: 16 << 10)
            let settings = try validated(body)
            try await state.store.replaceSettings(settings, user: user)
            return try JSONResponse.encode(Self.body(settings))
        }
    }

    private static func body(_ s: UserSettings) -> Body {
        Body(newsCountry: s.newsCountry, newsLanguage: s.newsLanguage, categories: s.categories, namesLanguage: s.namesLanguage)
    }

    func validated(_ body: Body) throws -> UserSettings {
        var settings = UserSettings()
        if let code = body.newsCountry {
            guard let country = state.catalogue.country(iso2: code), country.hasNews, let iso2 = country.iso2 else {
                let codes = state.catalogue.newsCountries.compactMap { $0.iso2?.lowercased() }.joined(separator: " ")
                throw Problem.badValue("newsCountry", "'\(code)' is not one of the news countries \(codes)")
            }
            settings.newsCountry = iso2.lowercased()
        }
        if let language = body.newsLanguage {
            guard language.count == 2, language.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw Problem.badValue("newsLanguage", "'\(language)' is not a two-letter ISO 639-1 code such as fr")
            }
            settings.newsLanguage = language.lowercased()
        }
        for name in body.categories ?? [] {
            guard let category = HeadlineCategory(rawValue: name.lowercased()) else {
                throw Problem.badValue(
                    "categories", "'\(name)' is not one of \(HeadlineCategory.allCases.map(\.rawValue).joined(separator: " "))")
            }
            if !settings.categories.contains(category.rawValue) { settings.categories.append(category.rawValue) }
        }
        settings.namesLanguage = try state.nameLanguage(body.namesLanguage, parameter: "namesLanguage")
        return settings
    }
}

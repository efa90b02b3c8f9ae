import GeoNews
import Hummingbird

/// `GET /v1/countries?search=&lang=&newsOnly=` (the map's search box) and
/// `GET /v1/countries/{iso2}`: catalogue entries as `geonews countries --json` prints them.
struct CountryRoutes {
    let state: ServerState

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/countries") { request, _ in
            let language = try state.nameLanguage(request.query("lang"))
            let newsOnly = try request.booleanQuery("newsOnly", default: false)
            let found = state.catalogue.search(request.query("search") ?? "", newsOnly: newsOnly)
            return JSONResponse.make(
                try CountryReport.jsonData(found, language: language),
                headers: [.cacheControl: "public, max-age=3600"])
        }
        routes.get("/v1/countries/{iso2}") { request, context in
            let code = context.parameters.get("iso2") ?? ""
            let language = try state.nameLanguage(request.query("lang"))
            guard let country = state.catalogue.country(iso2: code.uppercased()) ?? state.catalogue.country(id: code.uppercased()) else {
                throw Problem.notFound("country with code", code)
            }
            return try JSONResponse.encode(
                CountryReport(country, language: language),
                headers: [.cacheControl: "public, max-age=3600"])
        }
    }
}

extension ServerState {
    /// A `lang` value checked against the catalogue's name languages, lowercased.
    func nameLanguage(_ text: String?, parameter: String = "lang") throws -> String? {
        guard let text else { return nil }
        let code = text.lowercased()
        guard code == "en" || catalogue.languages.contains(code) else {
            throw Problem.badValue(parameter, "language '\(text)' is not one of \(catalogue.languages.joined(separator: " "))")
        }
        return code
    }
}

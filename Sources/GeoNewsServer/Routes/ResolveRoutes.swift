import Foundation
import GeoNews
import GeoNewsJSON
import Hummingbird

/// `GET /v1/resolve?lat=&lon=[&lang=][&headlines=N][&category=]`: the object `geonews --json`
/// prints, built by the same library report.
struct ResolveRoutes {
    let state: ServerState

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/resolve") { request, _ in
            let query = request.parameters
            if let plain = try Self.plainAnswer(query, state: state) { return plain.response }
            let (resolution, language) = try resolve(query)
            let wanted = try query.integer("headlines", in: 1...100, default: 5)
            let category = try query.value("category").map(HeadlineRoutes.category)
            let suggested = resolution.suggestion.country
            let result = try await state.headlineService().topHeadlines(
                country: (suggested.iso2 ?? suggested.id).lowercased(), category: category, limit: wanted)
            let headlines = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(result))
            return JSONResponse.make(try ResolutionReport(resolution, language: language, headlines: headlines, zoneRules: state.zoneRules).jsonBytes(),
                                     headers: [.cacheControl: HeadlineRoutes.cacheControl(result)])
        }
    }

    /// The answer without headlines, or `nil` when the query asks for headlines (those wait
    /// on the providers). Throws the 400 problem a bad parameter earns.
    static func plainAnswer(_ query: QueryParameters, state: ServerState) throws -> PlainAnswer? {
        guard query.value("headlines") == nil else { return nil }
        let (resolution, language) = try ResolveRoutes(state: state).resolve(query)
        if let category = query.value("category") { _ = try HeadlineRoutes.category(category) }
        return try answer(resolution, language: language, state: state)
    }

    /// The position and the name language the query asks for, resolved.
    private func resolve(_ query: QueryParameters) throws -> (Resolution, String?) {
        let latitude = try query.required("lat", "degrees, -90…90")
        let longitude = try query.required("lon", "degrees, -180…180")
        let position: Coordinate
        do throws(CoordinateInputError) {
            position = try Coordinate(parsingLatitude: latitude, longitude: longitude)
        } catch {
            throw Problem.badValue(error.description.hasPrefix("latitude") ? "lat" : "lon", error.description)
        }
        let language = try state.nameLanguage(query.value("lang"))
        return (state.resolver.resolve(position), language)
    }

    /// `geonews --json`'s object, valid until the next whole or half hour (UTC offsets change then).
    private static func answer(_ resolution: Resolution, language: String?, state: ServerState) throws -> PlainAnswer {
        let now = Date()
        let report = ResolutionReport(resolution, language: language, zoneRules: state.zoneRules, at: now)
        return PlainAnswer(headers: [.cacheControl: "public, max-age=\(ResolutionReport.secondsValid(after: now))",
                                     .contentType: "application/json"],
                           body: ByteBuffer(bytes: try report.jsonBytes()))
    }
}

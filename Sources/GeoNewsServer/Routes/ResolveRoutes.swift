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
            let latitude = try query.required("lat", "degrees, -90…90")
            let longitude = try query.required("lon", "degrees, -180…180")
            let position: Coordinate
            do throws(CoordinateInputError) {
                position = try Coordinate(parsingLatitude: latitude, longitude: longitude)
            } catch {
                throw Problem.badValue(error.description.hasPrefix("latitude") ? "lat" : "lon", error.description)
            }
            let language = try state.nameLanguage(query.value("lang"))
            let wanted = try query.value("headlines").map { _ in try query.integer("headlines", in: 1...100, default: 5) }
            let category = try query.value("category").map(HeadlineRoutes.category)
            let resolution = state.resolver.resolve(position)
            guard let wanted else {
                let now = Date()
                let report = ResolutionReport(resolution, language: language, zoneRules: state.zoneRules, at: now)
                return JSONResponse.make(try report.jsonBytes(),
                                         headers: [.cacheControl: "public, max-age=\(ResolutionReport.secondsValid(after: now))"])
            }
            let suggested = resolution.suggestion.country
            let result = try await state.headlineService().topHeadlines(
                country: (suggested.iso2 ?? suggested.id).lowercased(), category: category, limit: wanted)
            let headlines = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(result))
            return JSONResponse.make(try ResolutionReport(resolution, language: language, headlines: headlines, zoneRules: state.zoneRules).jsonBytes(),
                                     headers: [.cacheControl: HeadlineRoutes.cacheControl(result)])
        }
    }
}

import Foundation
import GeoNews
import GeoNewsJSON
import Hummingbird

/// `GET /v1/resolve?lat=&lon=[&lang=][&headlines=N][&category=]`: the object `geonews --json`
/// prints, built by the same library report, with the region and the nearest place.
struct ResolveRoutes {
    let state: ServerState

    /// The answer with headlines, for a query ``plainAnswer(_:state:fields:)`` leaves to the
    /// router (``PlainRoutes`` registers the route).
    @Sendable func headlineAnswer(_ request: Request, _ context: RouteBuilder.Context) async throws -> Response {
        let query = request.parameters
        let (resolution, language) = try resolve(query)
        let wanted = try query.integer("headlines", in: 1...100, default: 5)
        let category = try query.value("category").map(HeadlineRoutes.category)
        let suggested = resolution.suggestion.country
        let result = try await state.headlineService().topHeadlines(
            country: (suggested.iso2 ?? suggested.id).lowercased(), category: category, limit: wanted)
        let headlines = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(result))
        let body = try ResolutionReport(resolution, language: language, headlines: headlines, zoneRules: state.zoneRules)
            .withPlace(state.places.place(for: resolution))
            .withRegion(state.regions.region(for: resolution), language: language).jsonBytes()
        return try Self.tagged(body, cacheControl: HeadlineRoutes.cacheControl(result), fields: request.headers).response
    }

    /// The answer without headlines to a request with these header fields (304 to a
    /// matching `If-None-Match`), or `nil` when the query asks for headlines (those wait on
    /// the providers). Throws the 400 problem a bad parameter earns. A query string asked
    /// before in this half hour is answered from ``ServerState/resolveAnswers``, headers and
    /// all but the `Cache-Control`, whose `max-age` counts down to the next half hour.
    static func plainAnswer(_ query: QueryParameters, state: ServerState, fields: HTTPFields) throws -> PlainAnswer? {
        guard query.value("headlines") == nil else { return nil }
        let now = Date()
        let halfHour = Self.halfHour(now)
        let key = QueryAnswerMemo<Int64>.Key(query: query.raw, gzip: AnswerEncoding.acceptsGzip(fields))
        var answer: PlainAnswer
        switch state.resolveAnswers.answer(key, source: halfHour, ifNoneMatch: fields[.ifNoneMatch]) {
        case .answer(let kept)?:
            answer = kept
        case .notModified(let tag)?:
            answer = notModified(tag)
        case nil:
            let (resolution, language) = try ResolveRoutes(state: state).resolve(query)
            if let category = query.value("category") { _ = try HeadlineRoutes.category(category) }
            let body = ByteBuffer(
                bytes: try ResolutionReport(resolution, language: language, zoneRules: state.zoneRules, at: now)
                    .withPlace(state.places.place(for: resolution))
                    .withRegion(state.regions.region(for: resolution), language: language).jsonBytes())
            let tag = EntityTag.of(bytes: body.readableBytesView)
            let encodings: HTTPFields = key.gzip ? [.acceptEncoding: "gzip"] : [:]
            answer = try EntityTag.answer(to: encodings, tag: tag, contentType: "application/json", cache: nil) { body }
            answer.headers[.cacheControl] = nil  // set per request, through `PlainAnswer.cacheControl`
            state.resolveAnswers.store(answer, tag: tag, for: key, source: halfHour)
            if let matched = EntityTag.matching(fields[.ifNoneMatch], tag: tag) { answer = notModified(matched) }
        }
        // Valid until the next whole or half hour: UTC offsets change then.
        answer.cacheControl = Self.cacheControl(secondsValid: ResolutionReport.secondsValid(after: now))
        return answer
    }

    /// The 304 for a resolution whose tag (plain or gzip) `If-None-Match` named, without a
    /// `Cache-Control` of its own: the counting-down one is added per request.
    private static func notModified(_ tag: String) -> PlainAnswer {
        var answer = EntityTag.notModified(tag: tag, contentType: "application/json")
        answer.headers[.cacheControl] = nil
        return answer
    }

    /// The half hour since 1970 that `date` falls in: what a kept resolution is valid for.
    static func halfHour(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down)).quotientAndRemainder(dividingBy: 1800).quotient
    }

    /// `Cache-Control` for an answer valid `secondsValid` more seconds (1…1800), written once
    /// at first use rather than per request.
    static func cacheControl(secondsValid: Int) -> String {
        cacheControls[min(max(secondsValid, 0), cacheControls.count - 1)]
    }

    private static let cacheControls = (0...1800).map { "public, max-age=\($0)" }

    /// A resolution's JSON as the answer to a request with these fields: its ETag is the hash
    /// of the bytes (a resolution also depends on the hour, through its UTC offset), 304 to
    /// a matching `If-None-Match`, gzip when large enough and accepted.
    private static func tagged(_ body: [UInt8], cacheControl: String, fields: HTTPFields) throws -> PlainAnswer {
        try EntityTag.answer(
            to: fields, tag: EntityTag.of(bytes: body), contentType: "application/json", cache: nil,
            extraHeaders: [.cacheControl: cacheControl]
        ) { ByteBuffer(bytes: body) }
    }

    /// The position and the name language the query asks for, resolved.
    private func resolve(_ query: QueryParameters) throws -> (Resolution, String?) {
        let position = try query.coordinate()
        let language = try state.nameLanguage(query.value("lang"))
        return (state.resolver.resolve(position), language)
    }
}

import GeoNews
import GeoNewsDatasets
import Hummingbird

/// `GET /v1/clusters` (bbox+zoom, or altitude with center/viewport/tileSize; `dataset=`,
/// default `markers`) and `GET /v1/clusters/{id}/children | leaves | expansion-zoom`.
///
/// Answers are GeoJSON FeatureCollections with the CLI's properties and supercluster's
/// `point_count_abbreviated`. Every answer has an ETag derived from the dataset version and
/// the query as understood (so `zoom=3` and `zoom=3.4` share one); `If-None-Match` gets 304.
/// A cluster lists its `members` only up to ``ClusterIndex/listedMembersLimit`` points;
/// `leaves` pages through any cluster's points, at most ``maximumLeavesPage`` at a time.
struct ClusterRoutes {
    let state: ServerState

    /// The most points one `leaves` answer holds (supercluster's `getLeaves` default is 10).
    static let maximumLeavesPage = 1000

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/clusters/{id}/children") { request, context in
            let (dataset, id) = try await cluster(request, context)
            let tag = EntityTag.of(["children", dataset.name, dataset.version, "\(id.rawValue)"])
            return try EntityTag.respond(to: request, tag: tag, cache: state.answers) {
                try dataset.featureCollection(try known(id) { () throws(ClusterIndexError) in try dataset.index.children(of: id) })
            }
        }
        routes.get("/v1/clusters/{id}/leaves") { request, context in
            let (dataset, id) = try await cluster(request, context)
            let limit = try request.integerQuery("limit", in: 1...Self.maximumLeavesPage, default: 10)
            let offset = try request.integerQuery("offset", in: 0...Int(Int32.max), default: 0)
            let tag = EntityTag.of(["leaves", dataset.name, dataset.version, "\(id.rawValue)", "\(limit)", "\(offset)"])
            return try EntityTag.respond(to: request, tag: tag, cache: state.answers) {
                let leaves = try known(id) { () throws(ClusterIndexError) in try dataset.index.leaves(of: id, limit: limit, offset: offset)
                }
                return try dataset.featureCollection(
                    leaves.map {
                        ClusterFeature(kind: .point(index: $0), coordinate: dataset.index.points[$0], pointCount: 1)
                    })
            }
        }
        routes.get("/v1/clusters/{id}/expansion-zoom") { request, context in
            let (dataset, id) = try await cluster(request, context)
            let zoom = try known(id) { () throws(ClusterIndexError) in try dataset.index.expansionZoom(of: id) }
            return JSONResponse.make(
                #"{"cluster_id":\#(id.rawValue),"expansion_zoom":\#(zoom)}"#,
                headers: [.cacheControl: "public, max-age=3600"])
        }
    }

    /// The ETag of the clusters a query asks for, and how to encode them (kept by the tag in
    /// ``ServerState/answers``). Throws the problem a bad parameter earns.
    static func collection(
        _ query: QueryParameters, dataset: ClusterDataset, state: ServerState
    ) throws -> (tag: String, body: () throws -> ByteBuffer) {
        let tileSize = try query.integer("tileSize", in: 0...4096, default: 512)
        let clusterQuery: ClusterQuery
        let (zoom, altitude, bbox, center) = (query.value("zoom"), query.value("altitude"), query.value("bbox"), query.value("center"))
        do throws(ClusterQueryError) {
            clusterQuery = try ClusterQuery(
                zoom: zoom, altitude: altitude, bbox: bbox, center: center, viewport: query.value("viewport") ?? "390x844",
                tileSize: tileSize)
        } catch {
            throw Problem.badValue(Self.parameter(of: error), error.description)
        }
        let level = try clusterLevel(dataset, zoom: clusterQuery.zoom, text: zoom ?? altitude ?? "")
        let b = clusterQuery.bounds
        let tag = EntityTag.of(["clusters", dataset.name, dataset.version, "\(level)", "\(b.west),\(b.south),\(b.east),\(b.north)"])
        return (tag, { ByteBuffer(string: try dataset.featureCollection(dataset.index.clusters(in: b, zoom: Double(level)))) })
    }

    /// The answer to a `GET /v1/clusters` with these header fields: 304 to a matching
    /// `If-None-Match`, gzip when accepted; `nil` when the dataset must be loaded first, or
    /// fetched from the store when another instance uploaded it (``slowAnswer(_:_:)`` does
    /// either off the event loop).
    static func plainAnswer(_ query: QueryParameters, state: ServerState, fields: HTTPFields) throws -> PlainAnswer? {
        let name = query.value("dataset") ?? "markers"
        switch state.datasets.quickDataset(name) {
        case .ready(let dataset):
            state.sharedDatasets.served(name)
            let key = QueryAnswerMemo<String>.Key(query: query.raw, gzip: AnswerEncoding.acceptsGzip(fields))
            switch state.clusterAnswers.answer(key, source: dataset.version, ifNoneMatch: fields[.ifNoneMatch]) {
            case .answer(let kept)?: return kept
            case .notModified(let tag)?: return EntityTag.notModified(tag: tag, contentType: Self.contentType)
            case nil: break
            }
            let made = try taggedAnswer(query, dataset: dataset, state: state, fields: fields)
            state.clusterAnswers.store(made.answer, tag: made.tag, for: key, source: dataset.version)
            return made.answer
        case .needsLoad: return nil
        case .unknown:
            if state.sharedDatasets.mayFetch(name) { return nil }
            throw Problem.notFound("dataset", name)
        }
    }

    /// The answer to a `GET /v1/clusters` whose dataset is not mapped yet: loaded, then answered.
    @Sendable func slowAnswer(_ request: Request, _ context: RouteBuilder.Context) async throws -> Response {
        let dataset = try await state.dataset(request.parameters.value("dataset") ?? "markers")
        return try Self.answer(request.parameters, dataset: dataset, state: state, fields: request.headers).response
    }

    private static func answer(
        _ query: QueryParameters, dataset: ClusterDataset, state: ServerState, fields: HTTPFields
    ) throws -> PlainAnswer {
        try taggedAnswer(query, dataset: dataset, state: state, fields: fields).answer
    }

    /// The answer (304 to a matching `If-None-Match`, gzip when accepted) and the plain tag
    /// of its collection.
    private static func taggedAnswer(
        _ query: QueryParameters, dataset: ClusterDataset, state: ServerState, fields: HTTPFields
    ) throws -> (tag: String, answer: PlainAnswer) {
        let (tag, body) = try collection(query, dataset: dataset, state: state)
        return (tag, try EntityTag.answer(to: fields, tag: tag, contentType: contentType, cache: state.answers, body: body))
    }

    private static let contentType = "application/geo+json"

    /// The dataset and a cluster id below 2^53 (JavaScript reads ids as doubles).
    private func cluster(_ request: Request, _ context: RouteBuilder.Context) async throws -> (ClusterDataset, ClusterID) {
        let text = context.parameters.get("id") ?? ""
        guard let raw = UInt64(text), raw < 1 << 53 else {
            throw Problem.badValue("id", "'\(text)' is not a cluster id (a whole number below 2^53)")
        }
        return (try await state.dataset(request.parameters.value("dataset") ?? "markers"), ClusterID(rawValue: raw))
    }

    /// The level a zoom queries, or 400 when the index has no such zoom.
    private static func clusterLevel(_ dataset: ClusterDataset, zoom: Double, text: String) throws -> Int {
        do {
            return try dataset.index.level(forZoom: zoom)
        } catch {
            throw Problem.badValue(text.hasSuffix("m") ? "altitude" : "zoom", error.description)
        }
    }

    /// `body`'s answer, with 404 for an id the index does not know.
    private func known<T>(_ id: ClusterID, _ body: () throws(ClusterIndexError) -> T) throws -> T {
        do {
            return try body()
        } catch .unknownCluster {
            throw Problem.notFound("cluster with id", "\(id.rawValue)")
        } catch {
            throw Problem.badValue("id", error.description)
        }
    }

    /// The query parameter a ``ClusterQueryError`` is about.
    static func parameter(of error: ClusterQueryError) -> String {
        switch error {
        case .boundsNotFourNumbers, .boundsSouthAboveNorth, .boundsOutOfRange: return "bbox"
        case .center: return "center"
        case .viewport, .viewportOutOfRange: return "viewport"
        case .zoom, .zoomOutOfRange, .zoomAndAltitude, .noZoom: return "zoom"
        case .tileSize: return "tileSize"
        case .altitude: return "altitude"
        }
    }
}

import Foundation
import GeoNews
import Hummingbird

/// `POST /v1/resolve`: a CSV, NDJSON or GeoJSON body, chosen by Content-Type, streamed through
/// the library's batch resolver and streamed back as `geonews resolve` writes it (rows in = rows
/// out, error rows included). Neither body is held whole: each passes through a
/// ``ChunkQueue`` between the async body and the pipeline's threads.
struct BatchResolveRoutes {
    let state: ServerState

    /// The accepted media types and the record format each names.
    static let mediaTypes: [(mediaType: String, format: RecordFormat)] = [
        ("text/csv", .csv), ("application/x-ndjson", .ndjson),
        ("application/geo+json", .geojson), ("application/json", .geojson),
    ]

    func add(to routes: inout RouteBuilder) {
        routes.post("/v1/resolve") { request, _ in
            var options = try Self.options(for: request)
            // The CLI's --place: place_name, place_geonameid and place_distance_km after it.
            if try request.booleanQuery("place", default: false) { options.places = state.places }
            // The CLI's --region: region_iso3166_2, region_geonames and region_name before those.
            if try request.booleanQuery("region", default: false) { options.regions = state.batchRegions }
            let summaryOnly = try Self.summaryOnly(request)
            options.followsTraces = summaryOnly
            let batch = BatchResolver(
                resolver: state.resolver.measuring(options.includesBorderDistance ? .batchWithBorderDistance : .batch),
                options: options)
            let upload = ChunkQueue(), download = ChunkQueue()
            let limit = state.configuration.maximumBodyBytes
            let feeder = Task { await upload.fill(from: request.body, limit: limit) }
            if summaryOnly { return try await Self.summary(of: batch, upload: upload, feeder: feeder) }
            Thread.detachNewThread {
                do {
                    try batch.run(
                        name: "the request body", nextChunk: { try upload.take() },
                        output: .writer { bytes in
                            guard bytes.isEmpty || download.put(bytes) else { throw CancellationError() }
                        })
                    download.finish()
                } catch {
                    upload.cancel()
                    download.finish(throwing: error)
                }
            }
            // Waiting for the first rows lets a refusal (no latitude column, 413) still be a
            // problem rather than a cut-off 200.
            let outputFormat = options.outputFormat ?? options.inputFormat ?? .csv
            let first: [UInt8]?
            do {
                first = try await Self.firstRows(from: download, format: outputFormat)
            } catch {
                upload.cancel()
                await feeder.value
                throw Self.problem(error, upload: upload)
            }
            return Response(
                status: .ok, headers: [.contentType: Self.mediaType(of: outputFormat)],
                body: ResponseBody { writer in
                    defer { download.cancel(); upload.cancel() }
                    if let first { try await writer.write(ByteBuffer(bytes: first)) }
                    while let next = try await download.take() { try await writer.write(ByteBuffer(bytes: next)) }
                    await feeder.value
                    try await writer.finish(nil)
                })
        }
    }

    /// The opening of a FeatureCollection, which the batch writer sends before it reads any
    /// input.
    static let featureCollectionOpening = Array(#"{"type":"FeatureCollection","features":["#.utf8)

    /// The output up to and with the first rows (or the end): a GeoJSON answer's opening comes
    /// before the input is read, so it is held back with them, for a body that cannot be
    /// resolved to get its 400 rather than a 200 cut after the opening.
    static func firstRows(from download: ChunkQueue, format: RecordFormat) async throws -> [UInt8]? {
        guard let first = try await download.take() else { return nil }
        guard format == .geojson, first == featureCollectionOpening else { return first }
        return first + (try await download.take() ?? [])
    }

    /// Whether `summary=true` asks for the run's summary instead of its rows.
    static func summaryOnly(_ request: Request) throws -> Bool {
        switch request.query("summary") {
        case nil, "false", "0": return false
        case "true", "1": return true
        case let other?: throw Problem.badValue("summary", "'\(other)' is not true or false")
        }
    }

    /// `summary=true`: the rows are resolved and dropped, and the answer is the summary JSON
    /// of `geonews resolve --summary-json` (counts, countries, each trace's segments and
    /// crossings).
    static func summary(of batch: BatchResolver, upload: ChunkQueue, feeder: Task<Void, Never>) async throws -> Response {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<BatchSummary, BatchResolveError>, Never>) in
            Thread.detachNewThread {
                do throws(BatchResolveError) {
                    continuation.resume(
                        returning: .success(
                            try batch.run(name: "the request body", nextChunk: { try upload.take() }, output: .writer { _ in })))
                } catch {
                    upload.cancel()
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        await feeder.value
        switch outcome {
        case .success(let summary): return JSONResponse.make(summary.json(), headers: [.cacheControl: "no-store"])
        case .failure(let error): throw problem(error, upload: upload)
        }
    }

    /// The CLI's options from the Content-Type, the query (`latCol`, `lonCol`, `timeCol`,
    /// `traceCol`, `noHeader`, `outputFormat`) and, for the output, `Accept`.
    static func options(for request: Request) throws -> BatchResolveOptions {
        let input = try request.bodyFormat(mediaTypes)
        var options = BatchResolveOptions()
        options.inputFormat = input
        options.latitudeColumn = request.query("latCol").map(ColumnSelector.init)
        options.longitudeColumn = request.query("lonCol").map(ColumnSelector.init)
        options.timeColumn = request.query("timeCol").map(ColumnSelector.init)
        options.traceColumn = request.query("traceCol").map(ColumnSelector.init)
        switch request.query("noHeader") {
        case nil, "false", "0": options.hasHeader = true
        case "true", "1", "": options.hasHeader = false
        case let other?: throw Problem.badValue("noHeader", "'\(other)' is not true or false")
        }
        // The CLI's --border-distance: a border_distance_km column after time_zone.
        options.includesBorderDistance = try request.booleanQuery("borderDistance", default: false)
        if let text = request.query("outputFormat") {
            guard let format = RecordFormat(rawValue: text.lowercased()), format != .gpx else {
                throw Problem.badValue("outputFormat", "'\(text)' is not one of csv, ndjson, geojson")
            }
            options.outputFormat = format
        } else if let accept = request.headers[.accept]?.lowercased() {
            options.outputFormat = mediaTypes.first { accept.contains($0.mediaType) && $0.mediaType != "application/json" }?.format
        }
        return options
    }

    static func mediaType(of format: RecordFormat) -> String {
        switch format {
        case .csv: return "text/csv; charset=utf-8"
        case .ndjson: return "application/x-ndjson"
        case .geojson, .gpx: return "application/geo+json"
        }
    }

    /// The problem for a run that stopped before its first rows: the body's own failure
    /// (413) when there was one, else 400 with the library's reason.
    static func problem(_ error: any Error, upload: ChunkQueue) -> Problem {
        if let problem = upload.failure as? Problem { return problem }
        guard case .usage(let reason)? = error as? BatchResolveError else {
            return Problem(.badRequest, title: "Unusable input", detail: "the body cannot be resolved: \(error)")
        }
        return Problem(
            .badRequest, title: "Unusable input",
            detail: "the body cannot be resolved: \(reason) (the query parameters latCol, lonCol and noHeader choose the columns)")
    }
}

import GeoNews
import Hummingbird

/// `GET /v1/tiles/{z}/{x}/{y}.geojson | .mvt[?dataset=]`: the clustered points of one Web
/// Mercator tile, as a FeatureCollection with the properties of `/v1/clusters`, or as a
/// Mapbox Vector Tile 2.1 (layer `clusters`, extent 4096, with a buffer) that MapLibre draws.
///
/// z, x or y that are not whole numbers, and z outside 0…32, are 400; a tile outside the
/// grid of its zoom, another extension or an unknown dataset is 404. Every answer has an ETag
/// from the dataset version and the tile. A vector tile with nothing in it is 204, no body;
/// none is larger than ``ClusterIndex/maximumTileBytes``.
struct TileRoutes {
    let state: ServerState

    static let maximumZoom = 32
    static let vectorTileType = "application/vnd.mapbox-vector-tile"

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/tiles/{z}/{x}/{file}") { request, context in
            let file = context.parameters.get("file") ?? ""
            guard let dot = file.lastIndex(of: "."), [".geojson", ".mvt"].contains(file[dot...]) else {
                throw Problem(.notFound, detail: "no tile '\(file)': tiles are {y}.geojson or {y}.mvt")
            }
            let z = try Self.number("z", context.parameters.get("z") ?? "", in: 0...Self.maximumZoom)
            let x = try Self.number("x", context.parameters.get("x") ?? "", in: 0...Int.max)
            let y = try Self.number("y", String(file[..<dot]), in: 0...Int.max)
            let side = 1 << z
            guard x < side, y < side else {
                throw Problem(.notFound, detail: "no tile \(z)/\(x)/\(y): x and y are 0…\(side - 1) at zoom \(z)")
            }
            let name = request.query("dataset") ?? "markers"
            guard let dataset = try await state.sharedDatasets.dataset(name) else { throw Problem.notFound("dataset", name) }
            let vector = file[dot...] == ".mvt"
            let tag = EntityTag.of(["tile", dataset.name, dataset.version, "\(z)/\(x)/\(y)", vector ? "mvt" : "geojson"])
            if vector {
                var answer = try EntityTag.answer(to: request.headers, tag: tag, contentType: Self.vectorTileType, cache: state.answers) {
                    ByteBuffer(bytes: try dataset.index.vectorTile(z: z, x: x, y: y, ids: dataset.points.ids, names: dataset.points.names))
                }
                if answer.status == .ok, answer.body.readableBytes == 0 {
                    answer.status = .noContent
                    answer.headers[.contentType] = nil
                    answer.headers[.vary] = nil
                }
                return answer.response
            }
            return try EntityTag.respond(to: request, tag: tag, cache: state.answers) {
                try dataset.featureCollection(dataset.index.clusters(in: ClusterIndex.tileBounds(z: z, x: x, y: y), zoom: Double(z)))
            }
        }
    }

    /// A tile coordinate: a whole number within `range`, else 400 naming it.
    static func number(_ name: String, _ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            let bound = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "in \(range.lowerBound)…\(range.upperBound)"
            throw Problem.badValue(name, "'\(text)' is not a whole number \(bound)")
        }
        return value
    }
}

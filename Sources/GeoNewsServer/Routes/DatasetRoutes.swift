import Crypto
import Foundation
import GeoNews
import GeoNewsStore
import Hummingbird

/// `POST /v1/datasets[?name=]` (a CSV or GeoJSON body of points), `GET /v1/datasets` and
/// `DELETE /v1/datasets/{id}`: cluster datasets beyond the markers, for `/v1/clusters?dataset=`.
/// The body is streamed to a file in the state directory, which the library's point-file reader
/// then reads, and the index is built, off the request threads (see ``OffThread``); the file and
/// the store's record let the dataset survive a restart.
struct DatasetRoutes {
    let state: ServerState

    static let mediaTypes: [(mediaType: String, format: PointFile.Format)] = [
        ("text/csv", .csv), ("application/geo+json", .geoJSON), ("application/json", .geoJSON),
    ]

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/datasets") { _, _ in
            try JSONResponse.encode(state.datasets.summaries(), headers: [.cacheControl: "no-store"])
        }
        routes.post("/v1/datasets") { request, _ in
            let format = try request.bodyFormat(Self.mediaTypes)
            let id = Self.newID()
            let name = request.query("name") ?? id
            let file = "\(id).\(format == .csv ? "csv" : "geojson")"
            let url = state.datasets.folder.appendingPathComponent(file)
            let version = try await Self.save(request.body, to: url, limit: state.configuration.maximumBodyBytes)
            let record = DatasetRecord(id: id, name: name, points: 0, version: version, file: file)
            let dataset: ClusterDataset
            do {
                dataset = try await OffThread.run { try ClusterDataset.uploaded(record, file: url) }
            } catch {
                try? FileManager.default.removeItem(at: url)
                throw Problem(.badRequest, title: "Unusable points", detail: "the uploaded points cannot be clustered: \(error)")
            }
            var stored = record
            stored.points = dataset.points.coordinates.count
            try await state.store.addDataset(stored)
            state.datasets.add(dataset, name: name)
            return try JSONResponse.encode(DatasetSummary(id: id, name: name, points: stored.points, version: version),
                                           status: .created, headers: [.location: "/v1/datasets/\(id)", .cacheControl: "no-store"])
        }
        routes.delete("/v1/datasets/{id}") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard id != "markers" else { throw Problem.badValue("id", "'markers' is built in and cannot be deleted") }
            guard try await state.store.removeDataset(id: id) else { throw Problem.notFound("dataset", id) }
            state.datasets.remove(id)
            try? FileManager.default.removeItem(at: state.datasets.folder.appendingPathComponent("\(id).csv"))
            try? FileManager.default.removeItem(at: state.datasets.folder.appendingPathComponent("\(id).geojson"))
            return Response(status: .noContent)
        }
    }

    /// 16 random hexadecimal digits.
    static func newID() -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Writes `body` to `url` chunk by chunk (413 past `limit` bytes, the file then removed)
    /// and answers the first 16 hex digits of its SHA-256, the dataset's version.
    static func save(_ body: RequestBody, to url: URL, limit: Int) async throws -> String {
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: url) else {
            throw Problem(.internalServerError, detail: "the upload cannot be stored in the state directory")
        }
        var hash = SHA256()
        var received = 0
        do {
            defer { try? handle.close() }
            for try await buffer in body {
                received += buffer.readableBytes
                guard received <= limit else {
                    throw Problem(.contentTooLarge, detail: "the request body is larger than the limit of \(limit) bytes (--max-body-bytes)")
                }
                let bytes = Data(buffer.readableBytesView)
                hash.update(data: bytes)
                try handle.write(contentsOf: bytes)
            }
            try await OffThread.run { try handle.synchronize() }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error as? Problem ?? Problem(.internalServerError, detail: "the upload cannot be stored: \(error)")
        }
        return hash.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

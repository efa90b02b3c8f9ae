import Foundation
import GeoNews
import GeoNewsDatasets
import GeoNewsStore
import Hummingbird

/// `POST /v1/datasets[?name=]` (a CSV or GeoJSON body of points), `GET /v1/datasets` and
/// `DELETE /v1/datasets/{id}`: cluster datasets beyond the markers, for `/v1/clusters?dataset=`.
/// The body is streamed to a file in the state directory, which the library's point-file reader
/// then reads, and the index is built and written as a cluster archive (``DatasetArchive``),
/// off the request threads (see ``OffThread``); the files and the store's record let the
/// dataset survive a restart. Past `--max-upload-points` points, or past `--max-dataset-bytes`
/// stored on the server, an upload answers 413, as past the user's quota. Room under
/// `--max-dataset-bytes` is reserved before the body is read (``DatasetStorage``), so uploads
/// that arrive together cannot pass it together; builds take turns (``DatasetBuildTurns``), and
/// one that waits past `--dataset-build-wait` answers 503.
///
/// Uploading, listing and deleting take a bearer token: a dataset belongs to the user who
/// uploaded it, counts against that user's quota of points and bytes, and is listed and
/// deleted by that user only (another user's id answers 404, as an unknown one). Reading it
/// through the cluster and tile routes stays open to whoever has its id, so that a shared map
/// link works.
struct DatasetRoutes {
    let state: ServerState

    static let mediaTypes: [(mediaType: String, format: PointFile.Format)] = [
        ("text/csv", .csv), ("application/geo+json", .geoJSON), ("application/json", .geoJSON),
    ]

    /// The longest dataset name accepted, in UTF-8 bytes.
    static let maximumNameBytes = 200

    func add(to routes: inout RouteBuilder) {
        routes.get("/v1/datasets") { request, _ in
            let user = try await state.authenticatedUser(request)
            let records = try await state.store.datasets(owner: user)
            return try JSONResponse.encode(
                state.datasets.summaries(of: records, fetchable: state.store.sharesDatasetPoints),
                headers: [.cacheControl: "private, no-store"])
        }
        routes.post("/v1/datasets") { request, context in
            let user = try await state.authenticatedUser(request)
            let format = try request.bodyFormat(Self.mediaTypes)
            let id = Self.newID()
            let name = try Self.validName(request.query("name")) ?? id
            let quota = DatasetUsage(points: state.configuration.quotaPoints, bytes: state.configuration.quotaBytes)
            let usage = try await state.store.datasetUsage(owner: user)
            let room = quota.bytes - usage.bytes
            let overQuota = Self.overQuota(usage, quota)
            let declared = request.headers[.contentLength].flatMap(Int.init)
            if room <= 0 || (declared.map { $0 > room } ?? false) { throw overQuota }
            let maximum = state.configuration.maximumBodyBytes
            // Held from here to the answer, whichever way it goes: the room is given back on
            // every path, and once the files are stored they count for themselves.
            let reservation: DatasetStorage.Reservation
            do throws(DatasetStorage.Full) {
                reservation = try state.datasets.storage.reserve(id, bytes: declared, atMost: min(maximum, room))
            } catch {
                throw Self.overStorage(error)
            }
            defer { reservation.release() }
            let reserved = reservation.bytes
            let file = "\(id).\(format == .csv ? "csv" : "geojson")"
            let url = state.datasets.folder.appendingPathComponent(file)
            let limit = min(maximum, room, reserved)
            let (version, bytes) = try await Self.save(
                request.body, to: url, limit: limit,
                refusal: limit == room
                    ? overQuota
                    : limit == reserved
                        ? Self.overStorage(state.datasets.storage.shortfall(id, wanting: reserved + 1))
                        : Problem(
                            .contentTooLarge, detail: "the request body is larger than the limit of \(maximum) bytes (--max-body-bytes)"))
            try? reservation.resize(to: bytes)
            var record = DatasetRecord(id: id, name: name, points: 0, version: version, file: file, owner: user, bytes: bytes)
            let archive = state.datasets.folder.appendingPathComponent(DatasetArchive.fileName(of: record))
            func removeFiles() {
                try? FileManager.default.removeItem(at: url)
                try? FileManager.default.removeItem(at: archive)
            }
            let built: (points: Int, bytes: Int)
            do {
                built = try await build(
                    points: url, archive: archive, reservation: reservation, pointsBytes: bytes,
                    connectionClosed: context.connectionClosed)
            } catch {
                removeFiles()
                throw error
            }
            record.points = built.points
            guard record.points > 0 else {
                removeFiles()
                throw Problem(.badRequest, title: "Unusable points", detail: "the upload has no points: a dataset needs at least one")
            }
            let admission: (usage: DatasetUsage, added: Bool)
            do {
                admission = try await state.store.addDataset(record, file: url, quota: quota)
            } catch {
                removeFiles()
                throw error
            }
            guard admission.added else {
                removeFiles()
                throw Self.overQuota(admission.usage, quota, adding: record)
            }
            state.datasets.add(record)
            return try JSONResponse.encode(
                DatasetSummary(id: id, name: name, points: record.points, version: version),
                status: .created, headers: [.location: "/v1/datasets/\(id)", .cacheControl: "no-store"])
        }
        routes.delete("/v1/datasets/{id}") { request, context in
            let user = try await state.authenticatedUser(request)
            let id = context.parameters.get("id") ?? ""
            guard id != "markers" else { throw Problem.badValue("id", "'markers' is built in and cannot be deleted") }
            // Another user's dataset answers 404 like an unknown one: its existence is not told.
            guard let record = try await state.store.removeDataset(id: id, owner: user) else { throw Problem.notFound("dataset", id) }
            state.datasets.discard(record)
            return Response(status: .noContent)
        }
    }

    /// 16 random hexadecimal digits.
    static func newID() -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `name=` as given, `nil` when absent; 400 for one too long or holding a control character.
    static func validName(_ name: String?) throws -> String? {
        guard let name else { return nil }
        guard name.utf8.count <= maximumNameBytes else {
            throw Problem.badValue("name", "is \(name.utf8.count) bytes long; at most \(maximumNameBytes)")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem.badValue("name", "contains a control character (such as NUL); send printable text")
        }
        return name
    }

    /// 413 for an upload that would take its owner past the quota.
    static func overQuota(_ usage: DatasetUsage, _ quota: DatasetUsage, adding record: DatasetRecord? = nil) -> Problem {
        let adding = record.map { " and this upload has \($0.points) points in \($0.bytes) bytes" } ?? ""
        return Problem(
            .contentTooLarge, title: "Quota exceeded",
            detail:
                "your datasets hold \(usage.points) of \(quota.points) points and \(usage.bytes) of \(quota.bytes) bytes\(adding); delete a dataset (DELETE /v1/datasets/{id}) to make room",
            type: "https://geonews.invalid/problems/quota-exceeded")
    }

    /// 413 for an upload that would take the server's stored datasets past `--max-dataset-bytes`.
    static func overStorage(_ full: DatasetStorage.Full) -> Problem {
        let underWay = full.reservedByOthers > 0 ? ", uploads under way hold \(full.reservedByOthers) more," : ""
        return Problem(
            .contentTooLarge, title: "Dataset storage full",
            detail:
                "the server's datasets take \(full.stored) of \(full.limit) bytes (--max-dataset-bytes)\(underWay) and this upload needs \(full.requested); delete a dataset (DELETE /v1/datasets/{id}) to make room",
            type: "https://geonews.invalid/problems/dataset-storage-full")
    }
}

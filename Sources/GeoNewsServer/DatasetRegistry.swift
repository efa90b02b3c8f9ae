import Foundation
import GeoNews
import GeoNewsStore

/// The cluster datasets: the news markers, and the uploads that persist in the state
/// directory (points in `datasets/`, metadata in the store). Uploads come and go while the
/// server runs, so the table is guarded by a lock; each dataset itself is immutable.
final class DatasetRegistry: @unchecked Sendable {  // `table` is guarded by `lock`
    private let lock = NSLock()
    private var table: [String: (dataset: ClusterDataset, name: String)]
    /// Where uploaded point files live.
    let folder: URL

    /// Stored uploads whose points could not be read at start (the file missing or damaged),
    /// with the reason: left out of the table, their records kept so that restoring the file
    /// brings them back at the next start and `DELETE` still removes them.
    let unavailable: [(id: String, reason: String)]

    /// The markers and the uploads of `records`, with their indexes rebuilt; an upload that
    /// cannot be read is left out (see ``unavailable``) rather than stopping the server.
    init(markers: ClusterDataset, records: [DatasetRecord], stateDirectory: URL) throws {
        folder = stateDirectory.appendingPathComponent("datasets")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        table = [markers.name: (markers, markers.name)]
        var unavailable: [(id: String, reason: String)] = []
        for record in records {
            let file = folder.appendingPathComponent(record.file)
            do {
                table[record.id] = (try Self.load(record, in: folder), record.name)
            } catch {
                let reason = FileManager.default.fileExists(atPath: file.path) ? "\(error)" : "its file \(file.path) is missing"
                unavailable.append((record.id, reason))
            }
        }
        self.unavailable = unavailable
    }

    /// The dataset of `record`, from its file in ``folder``: the one way a stored upload
    /// becomes a loaded dataset (at start, and when another instance's upload is fetched).
    func load(_ record: DatasetRecord) throws -> ClusterDataset {
        try Self.load(record, in: folder)
    }

    private static func load(_ record: DatasetRecord, in folder: URL) throws -> ClusterDataset {
        try ClusterDataset.uploaded(record, file: folder.appendingPathComponent(record.file))
    }

    func dataset(_ id: String) -> ClusterDataset? {
        lock.withLock { table[id]?.dataset }
    }

    /// The summary of the markers, then of each of `records` that is loaded, or that
    /// `fetchable` says can be loaded on first use, in their order.
    func summaries(of records: [DatasetRecord], fetchable: Bool = false) -> [DatasetSummary] {
        lock.withLock {
            let stored = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return (["markers"] + records.map(\.id)).compactMap { id in
                if let loaded = table[id] {
                    return DatasetSummary(
                        id: id, name: loaded.name, points: loaded.dataset.points.coordinates.count,
                        version: loaded.dataset.version)
                }
                return fetchable ? stored[id].map { DatasetSummary(id: $0.id, name: $0.name, points: $0.points, version: $0.version) } : nil
            }
        }
    }

    func add(_ dataset: ClusterDataset, name: String) {
        lock.withLock { table[dataset.name] = (dataset, name) }
    }

    /// Forgets the dataset of `record`, the store having forgotten it, and removes its file.
    func discard(_ record: DatasetRecord) {
        _ = lock.withLock { table.removeValue(forKey: record.id) }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(record.file))
    }
}

/// What `GET /v1/datasets` lists and `POST /v1/datasets` answers.
struct DatasetSummary: Encodable, Sendable {
    let id: String
    let name: String
    let points: Int
    let version: String
}

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

    /// The markers and every stored upload, with their indexes rebuilt; an upload that cannot
    /// be read is left out (see ``unavailable``) rather than stopping the server.
    init(markers: ClusterDataset, store: Store, stateDirectory: URL) throws {
        folder = stateDirectory.appendingPathComponent("datasets")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        table = [markers.name: (markers, markers.name)]
        var unavailable: [(id: String, reason: String)] = []
        for record in try store.datasets() {
            let file = folder.appendingPathComponent(record.file)
            do {
                table[record.id] = (try ClusterDataset.uploaded(record, file: file), record.name)
            } catch {
                let reason = FileManager.default.fileExists(atPath: file.path) ? "\(error)" : "its file \(file.path) is missing"
                unavailable.append((record.id, reason))
            }
        }
        self.unavailable = unavailable
    }

    func dataset(_ id: String) -> ClusterDataset? {
        lock.withLock { table[id]?.dataset }
    }

    /// The summary of the markers, then of each of `records` that is loaded, in their order.
    func summaries(of records: [DatasetRecord]) -> [DatasetSummary] {
        lock.withLock {
            (["markers"] + records.map(\.id)).compactMap { id in
                table[id].map {
                    DatasetSummary(
                        id: id, name: $0.name, points: $0.dataset.points.coordinates.count,
                        version: $0.dataset.version)
                }
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

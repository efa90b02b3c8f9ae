import Foundation
import GRDB

/// An uploaded point set as the store keeps it: its points live in a file beside the database.
public struct DatasetRecord: Sendable, Hashable {
    /// The id clients pass as `dataset=`.
    public var id: String
    /// The name given at upload (the id when none was given).
    public var name: String
    /// The number of points.
    public var points: Int
    /// Changes whenever the points change (a hash of the file).
    public var version: String
    /// The file's name inside the state directory's `datasets` folder.
    public var file: String

    public init(id: String, name: String, points: Int, version: String, file: String) {
        self.id = id
        self.name = name
        self.points = points
        self.version = version
        self.file = file
    }
}

extension Store {
    /// Every dataset, oldest first. Synchronous: the server reads them once at start.
    public func datasets() throws(StoreError) -> [DatasetRecord] {
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT id, name, points, version, file FROM dataset ORDER BY createdAt, id").map {
                    DatasetRecord(id: $0["id"], name: $0["name"], points: $0["points"], version: $0["version"], file: $0["file"])
                }
            }
        } catch {
            throw .failed("\(error)")
        }
    }

    /// Records `dataset`, committed before it returns.
    public func addDataset(_ dataset: DatasetRecord) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "INSERT INTO dataset (id, name, points, version, file, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [dataset.id, dataset.name, dataset.points, dataset.version, dataset.file, Date()])
        }
    }

    /// Forgets the dataset `id`; `false` when there was none.
    public func removeDataset(id: String) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM dataset WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}

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
    /// The user who uploaded it; `nil` for a dataset from before datasets had owners.
    public var owner: Int64?
    /// The upload's size in bytes.
    public var bytes: Int

    public init(id: String, name: String, points: Int, version: String, file: String, owner: Int64? = nil, bytes: Int = 0) {
        self.id = id
        self.name = name
        self.points = points
        self.version = version
        self.file = file
        self.owner = owner
        self.bytes = bytes
    }
}

/// How much of their dataset quota a user holds.
public struct DatasetUsage: Sendable, Equatable {
    /// Points over all the user's datasets.
    public var points: Int
    /// Bytes of upload over all the user's datasets.
    public var bytes: Int

    public init(points: Int, bytes: Int) {
        self.points = points
        self.bytes = bytes
    }
}

extension Store {
    static let datasetColumns = "id, name, points, version, file, ownerId, bytes"

    static func datasetRecord(_ row: Row) -> DatasetRecord {
        DatasetRecord(
            id: row["id"], name: row["name"], points: row["points"], version: row["version"], file: row["file"],
            owner: row["ownerId"], bytes: row["bytes"])
    }

    /// Every dataset, oldest first. Synchronous: the server reads them once at start.
    public func datasets() throws(StoreError) -> [DatasetRecord] {
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT \(Self.datasetColumns) FROM dataset ORDER BY createdAt, id").map(Self.datasetRecord)
            }
        } catch {
            throw .failed("\(error)")
        }
    }

    /// The datasets `owner` uploaded, oldest first.
    public func datasets(owner: Int64) async throws(StoreError) -> [DatasetRecord] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.datasetColumns) FROM dataset WHERE ownerId = ? ORDER BY createdAt, id",
                arguments: [owner]
            ).map(Self.datasetRecord)
        }
    }

    /// The points and bytes `owner`'s datasets hold.
    public func datasetUsage(owner: Int64) async throws(StoreError) -> DatasetUsage {
        try await read { db in try Self.usage(db, owner: owner) }
    }

    private static func usage(_ db: Database, owner: Int64) throws -> DatasetUsage {
        let row = try Row.fetchOne(
            db, sql: "SELECT COALESCE(SUM(points), 0) AS p, COALESCE(SUM(bytes), 0) AS b FROM dataset WHERE ownerId = ?",
            arguments: [owner])
        return DatasetUsage(points: row?["p"] ?? 0, bytes: row?["b"] ?? 0)
    }

    /// Records `dataset` for its owner unless that would take the owner past `quota`, checked
    /// in the same transaction so that concurrent uploads cannot pass it together. Answers the
    /// owner's usage before the upload and whether it was recorded; committed before it returns.
    public func addDataset(_ dataset: DatasetRecord, quota: DatasetUsage) async throws(StoreError) -> (usage: DatasetUsage, added: Bool) {
        try await write { db in
            let usage = try dataset.owner.map { try Self.usage(db, owner: $0) } ?? DatasetUsage(points: 0, bytes: 0)
            guard usage.points + dataset.points <= quota.points, usage.bytes + dataset.bytes <= quota.bytes else {
                return (usage, false)
            }
            try db.execute(
                sql: """
                    INSERT INTO dataset (id, name, points, version, file, ownerId, bytes, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    dataset.id, dataset.name, dataset.points, dataset.version, dataset.file,
                    dataset.owner, dataset.bytes, Date(),
                ])
            return (usage, true)
        }
    }

    /// Forgets `owner`'s dataset `id` and answers its record; `nil` when `owner` has no dataset
    /// of that id (another user's, or an ownerless one, included).
    public func removeDataset(id: String, owner: Int64) async throws(StoreError) -> DatasetRecord? {
        try await write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(Self.datasetColumns) FROM dataset WHERE id = ? AND ownerId = ?",
                    arguments: [id, owner])
            else { return nil }
            try db.execute(sql: "DELETE FROM dataset WHERE id = ?", arguments: [id])
            return Self.datasetRecord(row)
        }
    }
}

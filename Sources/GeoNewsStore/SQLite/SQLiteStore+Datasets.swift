import Foundation
import GRDB

extension SQLiteStore {
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

    public func allDatasets() async throws(StoreError) -> [DatasetRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.datasetColumns) FROM dataset ORDER BY createdAt, id").map(Self.datasetRecord)
        }
    }

    public func dataset(id: String) async throws(StoreError) -> DatasetRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.datasetColumns) FROM dataset WHERE id = ?", arguments: [id]).map(Self.datasetRecord)
        }
    }

    /// Uploads live as files on the one machine that serves them.
    public var sharesDatasetPoints: Bool { false }

    public func datasetPoints(id: String) async throws(StoreError) -> Data? { nil }

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
    /// The points stay in `file`, in this machine's state directory; the store keeps no copy.
    public func addDataset(
        _ dataset: DatasetRecord, file: URL, quota: DatasetUsage
    ) async throws(StoreError) -> (
        usage: DatasetUsage, added: Bool
    ) {
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

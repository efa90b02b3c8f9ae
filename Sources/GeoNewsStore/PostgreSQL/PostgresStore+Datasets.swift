import Foundation
import PostgresNIO

extension PostgresStore {
    static let datasetColumns = "id, name, points, version, file, owner_id, bytes"
    private typealias DatasetRow = (String, String, Int64, String, String, Int64?, Int64)

    private static func datasetRecord(_ row: DatasetRow) -> DatasetRecord {
        DatasetRecord(id: row.0, name: row.1, points: Int(row.2), version: row.3, file: row.4, owner: row.5, bytes: Int(row.6))
    }

    static func datasetRecords(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws -> [DatasetRecord] {
        var records: [DatasetRecord] = []
        for try await row in try await connection.query(query, logger: logger).decode(DatasetRow.self) {
            records.append(datasetRecord(row))
        }
        return records
    }

    public func allDatasets() async throws(StoreError) -> [DatasetRecord] {
        try await rows("SELECT \(unescaped: Self.datasetColumns) FROM dataset ORDER BY created_at, id", as: DatasetRow.self)
            .map(Self.datasetRecord)
    }

    public func dataset(id: String) async throws(StoreError) -> DatasetRecord? {
        try await rows("SELECT \(unescaped: Self.datasetColumns) FROM dataset WHERE id = \(id)", as: DatasetRow.self)
            .first.map(Self.datasetRecord)
    }

    public func datasets(owner: Int64) async throws(StoreError) -> [DatasetRecord] {
        try await rows(
            "SELECT \(unescaped: Self.datasetColumns) FROM dataset WHERE owner_id = \(owner) ORDER BY created_at, id", as: DatasetRow.self
        ).map(Self.datasetRecord)
    }

    public func datasetUsage(owner: Int64) async throws(StoreError) -> DatasetUsage {
        let row = try await rows(Self.usageQuery(owner), as: (Int64, Int64).self).first
        return DatasetUsage(points: Int(row?.0 ?? 0), bytes: Int(row?.1 ?? 0))
    }

    private static func usageQuery(_ owner: Int64) -> PostgresQuery {
        "SELECT COALESCE(SUM(points), 0)::bigint, COALESCE(SUM(bytes), 0)::bigint FROM dataset WHERE owner_id = \(owner)"
    }

    /// The owner's row is locked (`FOR UPDATE`) before the usage is summed, so that two
    /// uploads by one user on two instances are checked one after the other.
    public func addDataset(
        _ dataset: DatasetRecord, file: URL, quota: DatasetUsage
    ) async throws(StoreError) -> (
        usage: DatasetUsage, added: Bool
    ) {
        let content: Data
        do {
            content = try Data(contentsOf: file, options: .mappedIfSafe)
        } catch {
            throw .failed("the upload's file cannot be read")
        }
        return try await transaction { [logger] connection in
            var usage = DatasetUsage(points: 0, bytes: 0)
            if let owner = dataset.owner {
                _ = try await connection.query("SELECT id FROM geonews_user WHERE id = \(owner) FOR UPDATE", logger: logger).collect()
                for try await (points, bytes) in try await connection.query(Self.usageQuery(owner), logger: logger).decode(
                    (Int64, Int64).self)
                {
                    usage = DatasetUsage(points: Int(points), bytes: Int(bytes))
                }
            }
            guard usage.points + dataset.points <= quota.points, usage.bytes + dataset.bytes <= quota.bytes else {
                return (usage, false)
            }
            _ = try await connection.query(
                """
                INSERT INTO dataset (id, name, points, version, file, owner_id, bytes, created_at) VALUES
                (\(dataset.id), \(dataset.name), \(Int64(dataset.points)), \(dataset.version), \(dataset.file),
                \(dataset.owner), \(Int64(dataset.bytes)), \(Date()))
                """, logger: logger
            ).collect()
            _ = try await connection.query(
                "INSERT INTO dataset_points (dataset_id, content) VALUES (\(dataset.id), \(ByteBuffer(bytes: content)))", logger: logger
            ).collect()
            return (usage, true)
        }
    }

    public func removeDataset(id: String, owner: Int64) async throws(StoreError) -> DatasetRecord? {
        try await rows(
            "DELETE FROM dataset WHERE id = \(id) AND owner_id = \(owner) RETURNING \(unescaped: Self.datasetColumns)", as: DatasetRow.self
        ).first.map(Self.datasetRecord)
    }

    public func datasetPoints(id: String) async throws(StoreError) -> Data? {
        try await rows("SELECT content FROM dataset_points WHERE dataset_id = \(id)", as: Data.self).first
    }
}

import Foundation
import PostgresNIO

extension PostgresStore {
    public func createUser(tokenHash: Data, tokenPrefix: String) async throws(StoreError) -> Int64 {
        let found = try await rows(
            "INSERT INTO geonews_user (token_hash, token_prefix, created_at) VALUES (\(ByteBuffer(bytes: tokenHash)), \(tokenPrefix), \(Date())) RETURNING id",
            as: Int64.self)
        guard let id = found.first else { throw .failed("the user just created has no id") }
        return id
    }

    public func tokenHolder(tokenHash: Data) async throws(StoreError) -> TokenHolder? {
        try await rows(
            "SELECT id, created_at, revoked_at FROM geonews_user WHERE token_hash = \(ByteBuffer(bytes: tokenHash))",
            as: (Int64, Date, Date?).self
        ).first.map { TokenHolder(user: $0.0, issuedAt: $0.1, revokedAt: $0.2) }
    }

    public func deleteUser(_ user: Int64) async throws(StoreError) -> [DatasetRecord] {
        try await transaction { [logger] connection in
            let owned = try await Self.datasetRecords(
                connection, "DELETE FROM dataset WHERE owner_id = \(user) RETURNING \(unescaped: Self.datasetColumns)", logger: logger)
            _ = try await connection.query("DELETE FROM geonews_user WHERE id = \(user)", logger: logger).collect()
            return owned
        }
    }

    public func revokeTokens(_ selector: TokenSelector) async throws(StoreError) -> [Int64] {
        let condition: PostgresQuery =
            switch selector {
            case .user(let id): "SELECT id FROM geonews_user WHERE id = \(id) AND revoked_at IS NULL FOR UPDATE"
            case .prefix(let prefix): "SELECT id FROM geonews_user WHERE token_prefix = \(prefix) AND revoked_at IS NULL FOR UPDATE"
            case .hash(let hash):
                "SELECT id FROM geonews_user WHERE token_hash = \(ByteBuffer(bytes: hash)) AND revoked_at IS NULL FOR UPDATE"
            }
        let isPrefix = if case .prefix = selector { true } else { false }
        return try await transaction { [logger] connection in
            var ids: [Int64] = []
            for try await id in try await connection.query(condition, logger: logger).decode(Int64.self) { ids.append(id) }
            if isPrefix, ids.count > 1 {
                throw StoreError.ambiguous("\(ids.count) users' tokens start with that prefix; revoke by user id")
            }
            for id in ids {
                _ = try await connection.query("UPDATE geonews_user SET revoked_at = \(Date()) WHERE id = \(id)", logger: logger).collect()
            }
            return ids
        }
    }
}

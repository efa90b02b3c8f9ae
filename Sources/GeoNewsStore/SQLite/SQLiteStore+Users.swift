import Foundation
import GRDB

extension SQLiteStore {
    /// Adds a user identified by the SHA-256 hash of their token (32 bytes) and returns its id.
    /// `tokenPrefix` is the token's first characters, not enough to act as the user, kept so
    /// that an operator can name the token.
    public func createUser(tokenHash: Data, tokenPrefix: String) async throws(StoreError) -> Int64 {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO user (tokenHash, tokenPrefix, createdAt) VALUES (?, ?, ?)",
                arguments: [tokenHash, tokenPrefix, Date()])
            return db.lastInsertedRowID
        }
    }

    /// The user whose token hashes to `tokenHash`, or `nil` for no such user.
    public func tokenHolder(tokenHash: Data) async throws(StoreError) -> TokenHolder? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT id, createdAt, revokedAt FROM user WHERE tokenHash = ?", arguments: [tokenHash])
                .map { TokenHolder(user: $0["id"], issuedAt: $0["createdAt"], revokedAt: $0["revokedAt"]) }
        }
    }

    /// Deletes the user with their favourites and settings (by cascade) and their datasets, in
    /// one transaction, and answers the records of the datasets removed (their files are the
    /// caller's to remove).
    public func deleteUser(_ user: Int64) async throws(StoreError) -> [DatasetRecord] {
        try await write { db in
            let owned = try Row.fetchAll(
                db, sql: "SELECT \(Self.datasetColumns) FROM dataset WHERE ownerId = ?",
                arguments: [user]
            ).map(Self.datasetRecord)
            try db.execute(sql: "DELETE FROM dataset WHERE ownerId = ?", arguments: [user])
            try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [user])
            return owned
        }
    }

    /// Revokes the tokens of the users `selector` names, for an operator; synchronous, as the
    /// command that calls it runs outside the server. Their data stays (their datasets readable
    /// by id); the users can no longer act. Answers the ids of the users revoked now.
    public func revokeTokens(_ selector: TokenSelector) throws(StoreError) -> [Int64] {
        do {
            return try pool.write { db in
                let (condition, argument): (String, any DatabaseValueConvertible) =
                    switch selector {
                    case .user(let id): ("id = ?", id)
                    case .prefix(let prefix): ("tokenPrefix = ?", prefix)
                    case .hash(let hash): ("tokenHash = ?", hash)
                    }
                let ids = try Int64.fetchAll(
                    db, sql: "SELECT id FROM user WHERE \(condition) AND revokedAt IS NULL",
                    arguments: [argument])
                if case .prefix = selector, ids.count > 1 {
                    throw StoreError.ambiguous("\(ids.count) users' tokens start with that prefix; revoke by user id")
                }
                for id in ids {
                    try db.execute(sql: "UPDATE user SET revokedAt = ? WHERE id = ?", arguments: [Date(), id])
                }
                return ids
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .failed("\(error)")
        }
    }
}

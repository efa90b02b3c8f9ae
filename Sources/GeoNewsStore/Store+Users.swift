import Foundation
import GRDB

extension Store {
    /// Adds a user identified by the SHA-256 hash of their token (32 bytes) and returns its id.
    public func createUser(tokenHash: Data) async throws(StoreError) -> Int64 {
        try await write { db in
            try db.execute(sql: "INSERT INTO user (tokenHash, createdAt) VALUES (?, ?)",
                           arguments: [tokenHash, Date()])
            return db.lastInsertedRowID
        }
    }

    /// The id of the user whose token hashes to `tokenHash`, or `nil` for no such user.
    public func user(tokenHash: Data) async throws(StoreError) -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE tokenHash = ?", arguments: [tokenHash])
        }
    }
}

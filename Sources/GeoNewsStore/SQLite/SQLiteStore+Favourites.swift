import Foundation
import GRDB

extension SQLiteStore {
    /// Up to `limit` of the user's favourites, newest first (the most recently saved, by id),
    /// starting after the favourite `before` when given: the next page of a listing.
    public func favourites(user: Int64, before: Int64? = nil, limit: Int) async throws(StoreError) -> [Favourite] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, url, title, source, publishedAt, imageURL, savedAt FROM favourite
                    WHERE userId = ? AND id < ? ORDER BY id DESC LIMIT ?
                    """, arguments: [user, before ?? Int64.max, limit]
            ).map(Self.favourite)
        }
    }

    /// Saves an article for the user. Saving an address the user already saved changes
    /// nothing and returns the existing favourite with `created` false.
    public func save(
        url: String, title: String, source: String?, publishedAt: String?, imageURL: String?,
        user: Int64
    ) async throws(StoreError) -> (favourite: Favourite, created: Bool) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO favourite (userId, url, title, source, publishedAt, imageURL, savedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (userId, url) DO NOTHING
                    """, arguments: [user, url, title, source, publishedAt, imageURL, Date()])
            let created = db.changesCount > 0
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, url, title, source, publishedAt, imageURL, savedAt FROM favourite
                        WHERE userId = ? AND url = ?
                        """, arguments: [user, url])
            else {
                throw StoreError.failed("the favourite just saved cannot be read back")
            }
            return (Self.favourite(row), created)
        }
    }

    /// Removes one of the user's favourites; false when the user has no favourite with that id
    /// (another user's id included).
    public func deleteFavourite(id: Int64, user: Int64) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM favourite WHERE id = ? AND userId = ?", arguments: [id, user])
            return db.changesCount > 0
        }
    }

    private static func favourite(_ row: Row) -> Favourite {
        Favourite(
            id: row["id"], url: row["url"], title: row["title"], source: row["source"],
            publishedAt: row["publishedAt"], imageURL: row["imageURL"], savedAt: row["savedAt"])
    }
}

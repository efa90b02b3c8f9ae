import GRDB

/// The schema, as an ordered list of migrations. Add a migration; never edit a shipped one.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, favourites, settings") { db in
            try db.create(table: "user") { t in
                t.autoIncrementedPrimaryKey("id")
                // SHA-256 of the bearer token; the token itself is never stored.
                t.column("tokenHash", .blob).notNull().unique()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "favourite") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("url", .text).notNull()
                t.column("title", .text).notNull()
                t.column("source", .text)
                t.column("publishedAt", .text)
                t.column("imageURL", .text)
                t.column("savedAt", .datetime).notNull()
                // The same article is saved once per user.
                t.uniqueKey(["userId", "url"])
            }
            try db.create(index: "favourite_newest", on: "favourite", columns: ["userId", "savedAt"])
            try db.create(table: "settings") { t in
                t.primaryKey("userId", .integer).references("user", onDelete: .cascade)
                t.column("newsCountry", .text)
                t.column("newsLanguage", .text)
                // Comma-separated category names.
                t.column("categories", .text).notNull().defaults(to: "")
                t.column("namesLanguage", .text)
            }
        }
        migrator.registerMigration("v2: datasets") { db in
            // An uploaded point set; its points are a file in the state directory.
            try db.create(table: "dataset") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("points", .integer).notNull()
                t.column("version", .text).notNull()
                // The file's name inside the state directory's datasets folder.
                t.column("file", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v3: owners, quotas, revocable tokens") { db in
            try db.alter(table: "dataset") { t in
                // NULL for a dataset uploaded before datasets had owners, or whose owner's
                // token an operator revoked: still readable by id, listed and deleted by no user.
                t.add(column: "ownerId", .integer).references("user", onDelete: .setNull)
                // The upload's size in bytes, counted against the owner's quota.
                t.add(column: "bytes", .integer).notNull().defaults(to: 0)
            }
            try db.create(index: "dataset_owner", on: "dataset", columns: ["ownerId"])
            try db.alter(table: "user") { t in
                // The token's first characters (`gn_` and 8 hex digits), not secret, so that an
                // operator can name a token to revoke; NULL for users created before.
                t.add(column: "tokenPrefix", .text)
                t.add(column: "revokedAt", .datetime)
            }
            try db.create(index: "user_token_prefix", on: "user", columns: ["tokenPrefix"])
        }
        return migrator
    }
}

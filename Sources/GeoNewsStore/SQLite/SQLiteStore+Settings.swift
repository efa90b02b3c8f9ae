import GRDB

extension SQLiteStore {
    /// The user's settings; all empty until they are first set.
    public func settings(user: Int64) async throws(StoreError) -> UserSettings {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT newsCountry, newsLanguage, categories, namesLanguage FROM settings WHERE userId = ?
                        """, arguments: [user])
            else { return UserSettings() }
            let categories: String = row["categories"]
            return UserSettings(
                newsCountry: row["newsCountry"], newsLanguage: row["newsLanguage"],
                categories: categories.split(separator: ",").map(String.init),
                namesLanguage: row["namesLanguage"])
        }
    }

    /// Replaces the user's settings with `settings`.
    public func replaceSettings(_ settings: UserSettings, user: Int64) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO settings (userId, newsCountry, newsLanguage, categories, namesLanguage)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT (userId) DO UPDATE SET
                    newsCountry = excluded.newsCountry, newsLanguage = excluded.newsLanguage,
                    categories = excluded.categories, namesLanguage = excluded.namesLanguage
                    """,
                arguments: [
                    user, settings.newsCountry, settings.newsLanguage,
                    settings.categories.joined(separator: ","), settings.namesLanguage,
                ])
        }
    }
}

import Foundation
import PostgresNIO

extension PostgresStore {
    private static let favouriteColumns = "id, url, title, source, published_at, image_url, saved_at"
    private typealias FavouriteRow = (Int64, String, String, String?, String?, String?, Date)

    private static func favourite(_ row: FavouriteRow) -> Favourite {
        Favourite(id: row.0, url: row.1, title: row.2, source: row.3, publishedAt: row.4, imageURL: row.5, savedAt: row.6)
    }

    public func favourites(user: Int64, before: Int64?, limit: Int) async throws(StoreError) -> [Favourite] {
        try await rows(
            """
            SELECT \(unescaped: Self.favouriteColumns) FROM favourite
            WHERE user_id = \(user) AND id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(Int64(limit))
            """, as: FavouriteRow.self
        ).map(Self.favourite)
    }

    /// Two instances saving the same address for one user at once: the unique (user, url)
    /// constraint makes the second insert wait for the first to commit and then do nothing;
    /// its SELECT (a new snapshot under READ COMMITTED) reads the first one's row.
    public func save(
        url: String, title: String, source: String?, publishedAt: String?, imageURL: String?, user: Int64
    ) async throws(StoreError) -> (favourite: Favourite, created: Bool) {
        try await transaction { [logger] connection in
            var inserted: [FavouriteRow] = []
            let insert: PostgresQuery = """
                INSERT INTO favourite (user_id, url, title, source, published_at, image_url, saved_at)
                VALUES (\(user), \(url), \(title), \(source), \(publishedAt), \(imageURL), \(Date()))
                ON CONFLICT (user_id, url) DO NOTHING RETURNING \(unescaped: Self.favouriteColumns)
                """
            for try await row in try await connection.query(insert, logger: logger).decode(FavouriteRow.self) { inserted.append(row) }
            if let row = inserted.first { return (Self.favourite(row), true) }
            let select: PostgresQuery = "SELECT \(unescaped: Self.favouriteColumns) FROM favourite WHERE user_id = \(user) AND url = \(url)"
            for try await row in try await connection.query(select, logger: logger).decode(FavouriteRow.self) {
                return (Self.favourite(row), false)
            }
            throw StoreError.failed("the favourite just saved cannot be read back")
        }
    }

    public func deleteFavourite(id: Int64, user: Int64) async throws(StoreError) -> Bool {
        try await !rows("DELETE FROM favourite WHERE id = \(id) AND user_id = \(user) RETURNING id", as: Int64.self).isEmpty
    }

    public func settings(user: Int64) async throws(StoreError) -> UserSettings {
        guard
            let row = try await rows(
                "SELECT news_country, news_language, categories, names_language FROM settings WHERE user_id = \(user)",
                as: (String?, String?, String, String?).self
            ).first
        else { return UserSettings() }
        return UserSettings(
            newsCountry: row.0, newsLanguage: row.1, categories: row.2.split(separator: ",").map(String.init), namesLanguage: row.3)
    }

    /// One statement: of two instances replacing one user's settings at once, the row lock
    /// orders them and the one that commits last wins whole.
    public func replaceSettings(_ settings: UserSettings, user: Int64) async throws(StoreError) {
        let categories = settings.categories.joined(separator: ",")
        _ = try await rows(
            """
            INSERT INTO settings (user_id, news_country, news_language, categories, names_language)
            VALUES (\(user), \(settings.newsCountry), \(settings.newsLanguage), \(categories), \(settings.namesLanguage))
            ON CONFLICT (user_id) DO UPDATE SET
            news_country = excluded.news_country, news_language = excluded.news_language,
            categories = excluded.categories, names_language = excluded.names_language
            RETURNING user_id
            """, as: Int64.self)
    }
}

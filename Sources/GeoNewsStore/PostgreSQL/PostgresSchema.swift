import Logging
import PostgresNIO

/// The PostgreSQL schema, as an ordered list of migrations: the same tables as the SQLite
/// store's, plus the datasets' points. Add a migration; never edit a shipped one.
enum PostgresSchema {
    /// The key of the advisory lock under which migrations run ("geonews" in ASCII), so that
    /// instances starting together apply each migration once: the second waits for the first
    /// to commit, then finds nothing left to do.
    static let lockKey: Int64 = 0x67_656f_6e65_7773

    static let migrations: [(name: String, statements: [String])] = [
        (
            "v1: users, favourites, settings, datasets",
            [
                """
                CREATE TABLE geonews_user (
                    id bigserial PRIMARY KEY,
                    -- SHA-256 of the bearer token; the token itself is never stored.
                    token_hash bytea NOT NULL UNIQUE,
                    -- gn_ and 8 hex digits: not secret, for an operator to name a token.
                    token_prefix text,
                    created_at timestamptz NOT NULL,
                    revoked_at timestamptz)
                """,
                "CREATE INDEX geonews_user_token_prefix ON geonews_user (token_prefix)",
                """
                CREATE TABLE favourite (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES geonews_user (id) ON DELETE CASCADE,
                    url text NOT NULL,
                    title text NOT NULL,
                    source text,
                    published_at text,
                    image_url text,
                    saved_at timestamptz NOT NULL,
                    -- The same article is saved once per user, whichever instance saves it.
                    UNIQUE (user_id, url))
                """,
                """
                CREATE TABLE settings (
                    user_id bigint PRIMARY KEY REFERENCES geonews_user (id) ON DELETE CASCADE,
                    news_country text,
                    news_language text,
                    categories text NOT NULL DEFAULT '',
                    names_language text)
                """,
                """
                CREATE TABLE dataset (
                    id text PRIMARY KEY,
                    name text NOT NULL,
                    points bigint NOT NULL,
                    -- Changes whenever the points change; instances reload on a new one.
                    version text NOT NULL,
                    -- The file's name in each instance's datasets folder.
                    file text NOT NULL,
                    owner_id bigint REFERENCES geonews_user (id) ON DELETE SET NULL,
                    bytes bigint NOT NULL DEFAULT 0,
                    created_at timestamptz NOT NULL)
                """,
                "CREATE INDEX dataset_owner ON dataset (owner_id)",
                """
                CREATE TABLE dataset_points (
                    dataset_id text PRIMARY KEY REFERENCES dataset (id) ON DELETE CASCADE,
                    -- The upload as received (CSV or GeoJSON), for the instances that did not receive it.
                    content bytea NOT NULL)
                """,
            ]
        )
    ]

    /// Applies the migrations `connection`'s database lacks, in one transaction under the
    /// advisory lock, and answers their names.
    @discardableResult
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        try await connection.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger).collect()
            _ = try await connection.query(
                "CREATE TABLE IF NOT EXISTS geonews_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: logger
            ).collect()
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM geonews_migration", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
                }
                _ = try await connection.query("INSERT INTO geonews_migration (name) VALUES (\(migration.name))", logger: logger).collect()
                done.append(migration.name)
            }
            return done
        }
    }
}

import Foundation
import GRDB

/// The server's persistent state: users, their favourite articles and their settings, in one
/// SQLite database in write-ahead-log mode.
///
/// Every write is one transaction committed with `synchronous = FULL` before the method
/// returns, so a write the server has acknowledged survives a `kill -9` (and a power cut).
/// Readers never wait for a writer. Safe to share between tasks.
public final class SQLiteStore: ServerStore {
    let pool: DatabasePool

    /// The file name of the database inside the state directory.
    public static let fileName = "geonews.sqlite"

    /// Opens (creating when missing) `geonews.sqlite` in `directory`, creating the directory
    /// with mode 0700, and brings the schema up to date.
    public init(directory: URL) throws(StoreError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotOpen(path: directory.path, reason: "the directory cannot be created: \(error.localizedDescription)")
        }
        var configuration = Configuration()
        // Every connection the pool opens, readers included, starts with FULL.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        configuration.busyMode = .timeout(5)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // The pool opens its one writer connection first (FULL, above) and then switches
            // it to WAL with `synchronous = NORMAL` (GRDB's Database.setUpWALMode), which
            // commits without an fsync. The writer is never reopened, so setting it once more
            // here holds for the pool's life.
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            try SQLiteSchema.migrator.migrate(pool)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// The `synchronous` setting (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA) of the pool's writer
    /// connection and of one of its readers, as SQLite reports it on those connections.
    public func synchronousSettings() throws(StoreError) -> (writer: Int, reader: Int) {
        do {
            let writer = try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") ?? -1 }
            let reader = try pool.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") ?? -1 }
            return (writer, reader)
        } catch {
            throw .failed("\(error)")
        }
    }

    public func ping() async throws(StoreError) {
        _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// The pool closes its connections when the store is released.
    public func close() async {}

    /// Runs `body` in one write transaction, mapping database failures to ``StoreError``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.write(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .failed("\(error)")
        }
    }

    /// Runs `body` on a read snapshot, mapping database failures to ``StoreError``.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw .failed("\(error)")
        }
    }
}

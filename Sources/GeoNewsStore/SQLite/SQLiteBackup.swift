import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// A consistent copy of the SQLite store taken while the server runs, and putting one back:
/// `geonews-serve backup` and `geonews-serve restore`.
///
/// A backup is SQLite's online backup of one read snapshot of the database (in write-ahead-log
/// mode a reader never waits for the writer, nor the writer for it), so it holds every write
/// committed before it began and none half-done. It is written beside the target under a
/// temporary name, checked (`PRAGMA integrity_check`), made a single self-contained file
/// (rollback journal, not WAL) and only then given its name; an existing file is never
/// replaced. A restore copies a backup that passes the same check, and holds GeoNews's tables,
/// into an empty state directory and opens it as the server would (migrations included).
///
/// The uploaded datasets' files (`datasets/` in the state directory) are not in the database:
/// they are written once and never changed, so a plain copy of that folder taken after the
/// backup holds every file the backup names.
public enum SQLiteBackup {
    /// What a backup or a restore copied.
    public struct Summary: Sendable, Equatable {
        /// The database's size in pages of `pageSize` bytes.
        public let pages: Int
        public let pageSize: Int
        /// Users, favourites and datasets in the copy.
        public let users: Int
        public let favourites: Int
        public let datasets: Int
    }

    /// Why a backup or a restore did nothing; each names the file or folder.
    public enum Failure: Error, Sendable, CustomStringConvertible, Equatable {
        /// No state database where one was expected (`--state-dir`), or no backup file.
        case missing(String)
        /// The target exists (a backup file, a state directory that is not empty) or its folder
        /// does not: nothing was written.
        case cannotCreate(String)
        /// The file is not a GeoNews store, or fails SQLite's integrity check.
        case notAStore(String)
        /// Reading or writing failed.
        case failed(String)

        public var description: String {
            switch self {
            case .missing(let reason), .cannotCreate(let reason), .notAStore(let reason), .failed(let reason): reason
            }
        }
    }

    /// The tables a GeoNews store has from its first migration on.
    static let requiredTables = ["user", "favourite", "settings"]

    /// Copies the store in `stateDirectory` to `target`, a file that must not exist yet, in a
    /// folder that must.
    public static func backup(stateDirectory: URL, to target: URL) throws(Failure) -> Summary {
        let source = stateDirectory.appendingPathComponent(SQLiteStore.fileName).path
        guard FileManager.default.fileExists(atPath: source) else {
            throw .missing("no state database at \(source)")
        }
        try checkCreatable(target)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).partial")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let summary: Summary
        do {
            // One connection reading one snapshot; a running server's writer goes on meanwhile.
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            let store = try DatabaseQueue(path: source, configuration: configuration)
            try? FileManager.default.removeItem(at: temporary)
            let copy = try DatabaseQueue(path: temporary.path)
            try store.backup(to: copy)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            summary = try check(copy, path: temporary.path, named: target.path)
            try copy.close()
            try store.close()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .failed("cannot back up \(source) to \(target.path): \(error)")
        }
        try publish(temporary, as: target)
        return summary
    }

    /// Puts the backup `file` into `stateDirectory`, which must be empty or not exist, and
    /// opens it as the server would.
    public static func restore(from file: URL, into stateDirectory: URL) throws(Failure) -> Summary {
        guard FileManager.default.fileExists(atPath: file.path) else { throw .missing("no backup at \(file.path)") }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: stateDirectory.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw .cannotCreate("\(stateDirectory.path) is a file, not a state directory") }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)) ?? ["?"]
            guard entries.isEmpty else {
                throw .cannotCreate("the state directory \(stateDirectory.path) is not empty; restore into an empty or new one")
            }
        }
        let summary: Summary
        let backup: DatabaseQueue
        do {
            var configuration = Configuration()
            configuration.readonly = true
            backup = try DatabaseQueue(path: file.path, configuration: configuration)
            summary = try check(backup, path: file.path, named: file.path)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .notAStore("\(file.path) is not an SQLite database SQLite can read: \(error)")
        }
        do {
            try FileManager.default.createDirectory(
                at: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let target = try DatabaseQueue(path: stateDirectory.appendingPathComponent(SQLiteStore.fileName).path)
            try backup.backup(to: target)
            try target.close()
            try backup.close()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .failed("cannot restore \(file.path) into \(stateDirectory.path): \(error)")
        }
        do {
            // As the server opens it: write-ahead log, synchronous FULL, migrations.
            _ = try SQLiteStore(directory: stateDirectory)
        } catch {
            throw .failed("the restored store in \(stateDirectory.path) does not open: \(error)")
        }
        return summary
    }

    /// Refuses a target that exists or whose folder does not.
    private static func checkCreatable(_ target: URL) throws(Failure) {
        var isFolder: ObjCBool = false
        let folder = target.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .cannotCreate("the folder \(folder) of \(target.path) does not exist")
        }
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw .cannotCreate("\(target.path) exists; a backup never replaces a file")
        }
    }

    /// Gives the checked copy its name, unless a file took that name meanwhile.
    private static func publish(_ temporary: URL, as target: URL) throws(Failure) {
        // link(2) fails when the name exists, where rename(2) would replace it.
        guard link(temporary.path, target.path) == 0 else {
            let reason = errno == EEXIST ? "\(target.path) exists; a backup never replaces a file" : String(cString: strerror(errno))
            throw .cannotCreate("cannot write \(target.path): \(reason)")
        }
    }

    /// SQLite's integrity check and GeoNews's tables, with what the copy holds.
    private static func check(_ db: DatabaseQueue, path: String, named: String) throws -> Summary {
        try db.read { db in
            let tables = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            let missing = requiredTables.filter { !tables.contains($0) }
            guard missing.isEmpty else {
                throw Failure.notAStore("\(named) is not a GeoNews store (no table \(missing.joined(separator: ", ")))")
            }
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            guard integrity == ["ok"] else {
                throw Failure.notAStore("\(named) fails SQLite's integrity check: \(integrity.prefix(3).joined(separator: "; "))")
            }
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0 }
            return Summary(
                pages: try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0, pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0,
                users: try count("user"), favourites: try count("favourite"),
                datasets: tables.contains("dataset") ? try count("dataset") : 0)
        }
    }
}

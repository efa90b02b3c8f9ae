import Foundation
import GRDB
import XCTest

@testable import GeoNewsStore

/// `SQLiteBackup`: a copy taken while writers run holds every write acknowledged before it
/// began and passes SQLite's integrity check once restored; nothing is ever overwritten.
final class SQLiteBackupTests: XCTestCase {
    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("geonews-backup-\(UUID().uuidString)")
    }

    /// The URLs of the favourites the writers saved and were told were saved, in order.
    private actor Acknowledged {
        var urls: [String] = []
        func add(_ url: String) { urls.append(url) }
    }

    func testABackupTakenWhileWritersRunRestoresEveryWriteAcknowledgedBeforeIt() async throws {
        let state = folder(), backups = folder(), restored = folder()
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        let store = try SQLiteStore(directory: state)
        let user = try await store.createUser(tokenHash: Data(repeating: 7, count: 32), tokenPrefix: "gn_07070707")
        let acknowledged = Acknowledged()
        let writers = (0..<4).map { writer in
            Task {
                var n = 0
                while !Task.isCancelled {
                    let url = "https://example.org/\(writer)/\(n)"
                    _ = try await store.save(url: url, title: "t", source: nil, publishedAt: nil, imageURL: nil, user: user)
                    await acknowledged.add(url)
                    n += 1
                }
            }
        }
        while await acknowledged.urls.count < 200 { try await Task.sleep(nanoseconds: 1_000_000) }
        let before = Set(await acknowledged.urls)
        let file = backups.appendingPathComponent("store.sqlite")
        let copied = try SQLiteBackup.backup(stateDirectory: state, to: file)
        // The writers went on during the backup.
        try await Task.sleep(nanoseconds: 20_000_000)
        for writer in writers { writer.cancel() }
        for writer in writers { _ = await writer.result }
        let after = await acknowledged.urls.count
        XCTAssertGreaterThan(after, before.count, "the writers wrote on while the backup ran")
        XCTAssertGreaterThanOrEqual(copied.favourites, before.count)
        XCTAssertEqual(copied.users, 1)

        let summary = try SQLiteBackup.restore(from: file, into: restored)
        XCTAssertEqual(summary, copied)
        let reopened = try SQLiteStore(directory: restored)
        let saved = Set(try await reopened.favourites(user: user, before: nil, limit: 1_000_000).map(\.url))
        XCTAssertEqual(saved.count, copied.favourites)
        XCTAssertTrue(before.isSubset(of: saved), "\(before.subtracting(saved).count) acknowledged writes missing from the backup")
        let check = try DatabaseQueue(path: restored.appendingPathComponent(SQLiteStore.fileName).path)
        let integrity = try await check.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        XCTAssertEqual(integrity, ["ok"])
        // The backup is one file: rollback journal, no write-ahead log beside it.
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path + "-wal"))
        let mode = try await DatabaseQueue(path: file.path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "delete")
    }

    func testABackupNeverReplacesAFileNorWritesIntoAMissingFolder() async throws {
        let state = folder(), backups = folder()
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        _ = try SQLiteStore(directory: state)
        let existing = backups.appendingPathComponent("taken.sqlite")
        try Data("mine".utf8).write(to: existing)
        XCTAssertThrowsError(try SQLiteBackup.backup(stateDirectory: state, to: existing)) { error in
            XCTAssertEqual(error as? SQLiteBackup.Failure, .cannotCreate("\(existing.path) exists; a backup never replaces a file"))
        }
        XCTAssertEqual(try Data(contentsOf: existing), Data("mine".utf8))
        let nowhere = backups.appendingPathComponent("missing/store.sqlite")
        XCTAssertThrowsError(try SQLiteBackup.backup(stateDirectory: state, to: nowhere)) { error in
            guard case .cannotCreate(let reason) = error as? SQLiteBackup.Failure else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains(backups.appendingPathComponent("missing").path), reason)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: backups.path), ["taken.sqlite"], "no partial file left")
        let empty = folder()
        XCTAssertThrowsError(try SQLiteBackup.backup(stateDirectory: empty, to: backups.appendingPathComponent("b.sqlite"))) { error in
            guard case .missing = error as? SQLiteBackup.Failure else { return XCTFail("\(error)") }
        }
    }

    func testARestoreRefusesAStateDirectoryInUseAndAFileThatIsNotAStore() async throws {
        let state = folder(), backups = folder()
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        let store = try SQLiteStore(directory: state)
        _ = try await store.createUser(tokenHash: Data(repeating: 9, count: 32), tokenPrefix: "gn_09090909")
        let file = backups.appendingPathComponent("store.sqlite")
        _ = try SQLiteBackup.backup(stateDirectory: state, to: file)
        let before = try Data(contentsOf: state.appendingPathComponent(SQLiteStore.fileName))
        XCTAssertThrowsError(try SQLiteBackup.restore(from: file, into: state)) { error in
            guard case .cannotCreate(let reason) = error as? SQLiteBackup.Failure else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("is not empty"), reason)
        }
        XCTAssertEqual(try Data(contentsOf: state.appendingPathComponent(SQLiteStore.fileName)), before, "nothing overwritten")

        let other = backups.appendingPathComponent("other.sqlite")
        try await DatabaseQueue(path: other.path).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        XCTAssertThrowsError(try SQLiteBackup.restore(from: other, into: folder())) { error in
            XCTAssertEqual(
                error as? SQLiteBackup.Failure, .notAStore("\(other.path) is not a GeoNews store (no table user, favourite, settings)"))
        }
        let garbage = backups.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: garbage)
        XCTAssertThrowsError(try SQLiteBackup.restore(from: garbage, into: folder())) { error in
            guard case .notAStore(let reason) = error as? SQLiteBackup.Failure else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.hasPrefix("\(garbage.path) is not an SQLite database"), reason)
        }
        XCTAssertThrowsError(try SQLiteBackup.restore(from: backups.appendingPathComponent("none.sqlite"), into: folder())) { error in
            guard case .missing = error as? SQLiteBackup.Failure else { return XCTFail("\(error)") }
        }
    }
}

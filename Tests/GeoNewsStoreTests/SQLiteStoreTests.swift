import Foundation
import GRDB
import XCTest

@testable import GeoNewsStore

/// The shared behaviour (``StoreBehaviour``) on SQLite, two stores on one file standing for
/// two instances, and what only SQLite does.
final class SQLiteStoreTests: XCTestCase {
    private func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("geonews-store-\(UUID().uuidString)")
    }

    /// GRDB's pool switches its writer to `synchronous = NORMAL` when it sets up WAL; the store
    /// must have it back at FULL on the writer that commits, and readers start FULL too.
    func testEveryConnectionOfThePoolCommitsWithSynchronousFull() throws {
        let store = try SQLiteStore(directory: directory())
        let settings = try store.synchronousSettings()
        XCTAssertEqual(settings.writer, 2, "the writer connection's synchronous setting")
        XCTAssertEqual(settings.reader, 2, "a reader connection's synchronous setting")
    }

    func testDatasetsFromBeforeOwnersAreKeptWithoutAnOwner() async throws {
        let folder = directory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(SQLiteStore.fileName).path
        do {
            let old = try DatabaseQueue(path: path)
            try SQLiteSchema.migrator.migrate(old, upTo: "v2: datasets")
            try await old.write { db in
                try db.execute(
                    sql: "INSERT INTO dataset (id, name, points, version, file, createdAt) VALUES ('00ab', 'old', 3, 'v', '00ab.csv', ?)",
                    arguments: [Date()])
            }
        }
        let store = try SQLiteStore(directory: folder)
        XCTAssertEqual(try store.datasets().map(\.id), ["00ab"])
        XCTAssertNil(try store.datasets().first?.owner)
        let user = try await store.createUser(tokenHash: Data(repeating: 1, count: 32), tokenPrefix: "gn_01010101")
        let listed = try await store.datasets(owner: user)
        XCTAssertEqual(listed, [])
        let removed = try await store.removeDataset(id: "00ab", owner: user)
        XCTAssertNil(removed)
        XCTAssertEqual(try store.datasets().count, 1)
    }

    private var behaviour: StoreBehaviour {
        get throws {
            try StoreBehaviour {
                let folder = self.directory()
                return (try SQLiteStore(directory: folder), try SQLiteStore(directory: folder))
            }
        }
    }

    func testUsersAreFoundByTokenHashAndKnownToTheOtherInstance() async throws {
        try await behaviour.usersAreFoundByTokenHashAndKnownToTheOtherInstance()
    }

    func testRevokingByPrefixOrIdMarksTheTokenAndRefusesAnAmbiguousPrefix() async throws {
        try await behaviour.revokingByPrefixOrIdMarksTheTokenAndRefusesAnAmbiguousPrefix()
    }

    func testFavouritesAreSavedOnceAndComeInPagesNewestFirst() async throws {
        try await behaviour.favouritesAreSavedOnceAndComeInPagesNewestFirst()
    }

    func testConcurrentDuplicateSavesFromTwoInstancesMakeOneFavourite() async throws {
        try await behaviour.concurrentDuplicateSavesFromTwoInstancesMakeOneFavourite()
    }

    func testSettingsUpdatesAreWholeAndTheLastCommittedWins() async throws {
        try await behaviour.settingsUpdatesAreWholeAndTheLastCommittedWins()
    }

    func testDatasetsAreListedByOwnerAndHeldToTheQuota() async throws {
        try await behaviour.datasetsAreListedByOwnerAndHeldToTheQuota()
    }

    func testConcurrentUploadsFromTwoInstancesStayWithinTheQuota() async throws {
        try await behaviour.concurrentUploadsFromTwoInstancesStayWithinTheQuota()
    }

    func testDeletingAUserTakesItsFavouritesSettingsAndDatasets() async throws {
        try await behaviour.deletingAUserTakesItsFavouritesSettingsAndDatasets()
    }

    func testPingAnswers() async throws {
        try await behaviour.pingAnswers()
    }
}

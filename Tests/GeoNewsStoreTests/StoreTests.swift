import Foundation
import GRDB
import XCTest

@testable import GeoNewsStore

final class StoreTests: XCTestCase {
    private func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("geonews-store-\(UUID().uuidString)")
    }

    /// GRDB's pool switches its writer to `synchronous = NORMAL` when it sets up WAL; the store
    /// must have it back at FULL on the writer that commits, and readers start FULL too.
    func testEveryConnectionOfThePoolCommitsWithSynchronousFull() throws {
        let store = try Store(directory: directory())
        let settings = try store.synchronousSettings()
        XCTAssertEqual(settings.writer, 2, "the writer connection's synchronous setting")
        XCTAssertEqual(settings.reader, 2, "a reader connection's synchronous setting")
    }

    func testDatasetsFromBeforeOwnersAreKeptWithoutAnOwner() async throws {
        let folder = directory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(Store.fileName).path
        do {
            let old = try DatabaseQueue(path: path)
            try StoreSchema.migrator.migrate(old, upTo: "v2: datasets")
            try await old.write { db in
                try db.execute(
                    sql: "INSERT INTO dataset (id, name, points, version, file, createdAt) VALUES ('00ab', 'old', 3, 'v', '00ab.csv', ?)",
                    arguments: [Date()])
            }
        }
        let store = try Store(directory: folder)
        XCTAssertEqual(try store.datasets().map(\.id), ["00ab"])
        XCTAssertNil(try store.datasets().first?.owner)
        let user = try await store.createUser(tokenHash: Data(repeating: 1, count: 32), tokenPrefix: "gn_01010101")
        let listed = try await store.datasets(owner: user)
        XCTAssertEqual(listed, [])
        let removed = try await store.removeDataset(id: "00ab", owner: user)
        XCTAssertNil(removed)
        XCTAssertEqual(try store.datasets().count, 1)
    }

    func testAQuotaHoldsAcrossUploadsAndOnlyForItsOwner() async throws {
        let store = try Store(directory: directory())
        let alice = try await store.createUser(tokenHash: Data(repeating: 1, count: 32), tokenPrefix: "gn_01010101")
        let bob = try await store.createUser(tokenHash: Data(repeating: 2, count: 32), tokenPrefix: "gn_02020202")
        let quota = DatasetUsage(points: 100, bytes: 1000)
        func record(_ id: String, _ owner: Int64, points: Int, bytes: Int) -> DatasetRecord {
            DatasetRecord(id: id, name: id, points: points, version: "v", file: "\(id).csv", owner: owner, bytes: bytes)
        }
        var admission = try await store.addDataset(record("a1", alice, points: 60, bytes: 400), quota: quota)
        XCTAssertTrue(admission.added)
        admission = try await store.addDataset(record("a2", alice, points: 41, bytes: 10), quota: quota)
        XCTAssertFalse(admission.added)
        XCTAssertEqual(admission.usage, DatasetUsage(points: 60, bytes: 400))
        admission = try await store.addDataset(record("a3", alice, points: 40, bytes: 601), quota: quota)
        XCTAssertFalse(admission.added)
        admission = try await store.addDataset(record("b1", bob, points: 100, bytes: 1000), quota: quota)
        XCTAssertTrue(admission.added)
        let usage = try await store.datasetUsage(owner: alice)
        XCTAssertEqual(usage, DatasetUsage(points: 60, bytes: 400))
        let removedByBob = try await store.removeDataset(id: "a1", owner: bob)
        XCTAssertNil(removedByBob)
        let removed = try await store.removeDataset(id: "a1", owner: alice)
        XCTAssertEqual(removed?.file, "a1.csv")
    }

    func testDeletingAUserTakesItsFavouritesSettingsAndDatasets() async throws {
        let store = try Store(directory: directory())
        let hash = Data(repeating: 7, count: 32)
        let user = try await store.createUser(tokenHash: hash, tokenPrefix: "gn_07070707")
        _ = try await store.save(url: "https://x.org/1", title: "t", source: nil, publishedAt: nil, imageURL: nil, user: user)
        try await store.replaceSettings(UserSettings(newsCountry: "fr"), user: user)
        _ = try await store.addDataset(
            DatasetRecord(id: "d1", name: "d1", points: 1, version: "v", file: "d1.csv", owner: user, bytes: 9),
            quota: DatasetUsage(points: 10, bytes: 10))
        let removed = try await store.deleteUser(user)
        XCTAssertEqual(removed.map(\.id), ["d1"])
        let holder = try await store.tokenHolder(tokenHash: hash)
        XCTAssertNil(holder)
        let favourites = try await store.favourites(user: user, limit: 10)
        XCTAssertEqual(favourites, [])
        let settings = try await store.settings(user: user)
        XCTAssertEqual(settings, UserSettings())
        XCTAssertEqual(try store.datasets(), [])
    }

    func testRevokingByPrefixOrIdMarksTheTokenAndRefusesAnAmbiguousPrefix() async throws {
        let store = try Store(directory: directory())
        let first = try await store.createUser(tokenHash: Data(repeating: 1, count: 32), tokenPrefix: "gn_aaaaaaaa")
        _ = try await store.createUser(tokenHash: Data(repeating: 2, count: 32), tokenPrefix: "gn_bbbbbbbb")
        _ = try await store.createUser(tokenHash: Data(repeating: 3, count: 32), tokenPrefix: "gn_bbbbbbbb")
        XCTAssertEqual(try store.revokeTokens(.prefix("gn_aaaaaaaa")), [first])
        let holder = try await store.tokenHolder(tokenHash: Data(repeating: 1, count: 32))
        XCTAssertNotNil(holder?.revokedAt)
        XCTAssertThrowsError(try store.revokeTokens(.prefix("gn_bbbbbbbb")))
        XCTAssertEqual(try store.revokeTokens(.prefix("gn_aaaaaaaa")), [], "a revoked token is not revoked twice")
        XCTAssertEqual(try store.revokeTokens(.hash(Data(repeating: 3, count: 32))).count, 1)
    }

    func testFavouritesComeInPagesNewestFirst() async throws {
        let store = try Store(directory: directory())
        let user = try await store.createUser(tokenHash: Data(repeating: 1, count: 32), tokenPrefix: "gn_01010101")
        for n in 1...5 {
            _ = try await store.save(url: "https://x.org/\(n)", title: "\(n)", source: nil, publishedAt: nil, imageURL: nil, user: user)
        }
        let first = try await store.favourites(user: user, limit: 2)
        XCTAssertEqual(first.map(\.title), ["5", "4"])
        let second = try await store.favourites(user: user, before: first.last?.id, limit: 2)
        XCTAssertEqual(second.map(\.title), ["3", "2"])
        let last = try await store.favourites(user: user, before: second.last?.id, limit: 2)
        XCTAssertEqual(last.map(\.title), ["1"])
    }
}

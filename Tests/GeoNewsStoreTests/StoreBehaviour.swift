import Foundation
import GeoNewsStore
import XCTest

/// Every behaviour the server relies on, for any ``ServerStore``: SQLiteStoreTests and
/// PostgresStoreTests run each of these on a fresh store of their kind.
struct StoreBehaviour {
    /// A fresh, empty store, and a second store on the same database (another instance).
    let stores: () async throws -> (any ServerStore, any ServerStore)
    /// A file standing for an upload's points.
    let upload: URL

    init(stores: @escaping () async throws -> (any ServerStore, any ServerStore)) throws {
        self.stores = stores
        upload = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-upload-\(UUID().uuidString).csv")
        try Data("lat,lon\n1,2\n".utf8).write(to: upload)
    }

    private func hash(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

    private func record(_ id: String, _ owner: Int64, points: Int, bytes: Int) -> DatasetRecord {
        DatasetRecord(id: id, name: id, points: points, version: "v", file: "\(id).csv", owner: owner, bytes: bytes)
    }

    func usersAreFoundByTokenHashAndKnownToTheOtherInstance() async throws {
        let (store, other) = try await stores()
        let alice = try await store.createUser(tokenHash: hash(1), tokenPrefix: "gn_01010101")
        let bob = try await store.createUser(tokenHash: hash(2), tokenPrefix: "gn_02020202")
        XCTAssertNotEqual(alice, bob)
        let holder = try await other.tokenHolder(tokenHash: hash(1))
        XCTAssertEqual(holder?.user, alice)
        XCTAssertNil(holder?.revokedAt)
        XCTAssertLessThan(abs(holder?.issuedAt.timeIntervalSinceNow ?? 1000), 60)
        let nobody = try await other.tokenHolder(tokenHash: hash(9))
        XCTAssertNil(nobody)
    }

    func revokingByPrefixOrIdMarksTheTokenAndRefusesAnAmbiguousPrefix() async throws {
        let (store, other) = try await stores()
        let first = try await store.createUser(tokenHash: hash(1), tokenPrefix: "gn_aaaaaaaa")
        _ = try await store.createUser(tokenHash: hash(2), tokenPrefix: "gn_bbbbbbbb")
        let third = try await store.createUser(tokenHash: hash(3), tokenPrefix: "gn_bbbbbbbb")
        let revoked = try await store.revokeTokens(.prefix("gn_aaaaaaaa"))
        XCTAssertEqual(revoked, [first])
        let holder = try await other.tokenHolder(tokenHash: hash(1))
        XCTAssertNotNil(holder?.revokedAt, "the other instance sees the revocation")
        do {
            _ = try await store.revokeTokens(.prefix("gn_bbbbbbbb"))
            XCTFail("an ambiguous prefix revoked tokens")
        } catch .ambiguous {
        } catch {
            XCTFail("\(error)")
        }
        let again = try await store.revokeTokens(.prefix("gn_aaaaaaaa"))
        XCTAssertEqual(again, [], "a revoked token is not revoked twice")
        let byHash = try await store.revokeTokens(.hash(hash(3)))
        XCTAssertEqual(byHash, [third])
        let byID = try await store.revokeTokens(.user(third))
        XCTAssertEqual(byID, [])
    }

    func favouritesAreSavedOnceAndComeInPagesNewestFirst() async throws {
        let (store, other) = try await stores()
        let user = try await store.createUser(tokenHash: hash(1), tokenPrefix: "gn_01010101")
        for n in 1...5 {
            let saved = try await store.save(
                url: "https://x.org/\(n)", title: "\(n)", source: "s", publishedAt: nil, imageURL: nil, user: user)
            XCTAssertTrue(saved.created)
        }
        let duplicate = try await other.save(
            url: "https://x.org/3", title: "new title", source: nil, publishedAt: nil, imageURL: nil, user: user)
        XCTAssertFalse(duplicate.created)
        XCTAssertEqual(duplicate.favourite.title, "3", "a duplicate save changes nothing")
        let first = try await other.favourites(user: user, before: nil, limit: 2)
        XCTAssertEqual(first.map(\.title), ["5", "4"])
        XCTAssertEqual(first.first?.source, "s")
        let second = try await other.favourites(user: user, before: first.last?.id, limit: 2)
        XCTAssertEqual(second.map(\.title), ["3", "2"])
        let last = try await other.favourites(user: user, before: second.last?.id, limit: 2)
        XCTAssertEqual(last.map(\.title), ["1"])
        let stranger = try await store.createUser(tokenHash: hash(2), tokenPrefix: "gn_02020202")
        let notTheirs = try await store.deleteFavourite(id: duplicate.favourite.id, user: stranger)
        XCTAssertFalse(notTheirs)
        let deleted = try await other.deleteFavourite(id: duplicate.favourite.id, user: user)
        XCTAssertTrue(deleted)
        let remaining = try await store.favourites(user: user, before: nil, limit: 10)
        XCTAssertEqual(remaining.map(\.title), ["5", "4", "2", "1"])
    }

    /// Forty saves of one address for one user at once, half through each instance: one
    /// favourite, created by exactly one of them, and every save answers its id.
    func concurrentDuplicateSavesFromTwoInstancesMakeOneFavourite() async throws {
        let (store, other) = try await stores()
        let user = try await store.createUser(tokenHash: hash(1), tokenPrefix: "gn_01010101")
        let results = try await withThrowingTaskGroup(of: (Int64, Bool).self) { group in
            for n in 0..<40 {
                let target = n.isMultiple(of: 2) ? store : other
                group.addTask {
                    let saved = try await target.save(
                        url: "https://x.org/same", title: "t\(n)", source: nil, publishedAt: nil, imageURL: nil, user: user)
                    return (saved.favourite.id, saved.created)
                }
            }
            return try await group.reduce(into: [(Int64, Bool)]()) { $0.append($1) }
        }
        XCTAssertEqual(results.filter(\.1).count, 1, "exactly one save created the favourite")
        XCTAssertEqual(Set(results.map(\.0)).count, 1, "every save answered the same favourite")
        let listed = try await other.favourites(user: user, before: nil, limit: 100)
        XCTAssertEqual(listed.count, 1)
    }

    /// Replacing settings is whole: the last replacement committed wins, from either instance,
    /// and concurrent ones leave one of them, never a mix of two.
    func settingsUpdatesAreWholeAndTheLastCommittedWins() async throws {
        let (store, other) = try await stores()
        let user = try await store.createUser(tokenHash: hash(1), tokenPrefix: "gn_01010101")
        let empty = try await other.settings(user: user)
        XCTAssertEqual(empty, UserSettings())
        try await store.replaceSettings(UserSettings(newsCountry: "fr", newsLanguage: "fr", categories: ["world", "science"]), user: user)
        try await other.replaceSettings(UserSettings(newsCountry: "de", categories: ["sports"], namesLanguage: "de"), user: user)
        let last = try await store.settings(user: user)
        XCTAssertEqual(last, UserSettings(newsCountry: "de", categories: ["sports"], namesLanguage: "de"))
        let candidates = (0..<20).map { n in
            UserSettings(newsCountry: "c\(n)", newsLanguage: "l\(n)", categories: ["k\(n)", "m\(n)"], namesLanguage: "n\(n)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (n, settings) in candidates.enumerated() {
                let target = n.isMultiple(of: 2) ? store : other
                group.addTask { try await target.replaceSettings(settings, user: user) }
            }
            try await group.waitForAll()
        }
        let final = try await other.settings(user: user)
        XCTAssertTrue(candidates.contains(final), "the settings are one replacement whole, not a mix: \(final)")
    }

    func datasetsAreListedByOwnerAndHeldToTheQuota() async throws {
        let (store, other) = try await stores()
        let alice = try await store.createUser(tokenHash: hash(1), tokenPrefix: "gn_01010101")
        let bob = try await store.createUser(tokenHash: hash(2), tokenPrefix: "gn_02020202")
        let quota = DatasetUsage(points: 100, bytes: 1000)
        var admission = try await store.addDataset(record("a1", alice, points: 60, bytes: 400), file: upload, quota: quota)
        XCTAssertTrue(admission.added)
        admission = try await other.addDataset(record("a2", alice, points: 41, bytes: 10), file: upload, quota: quota)
        XCTAssertFalse(admission.added)
        XCTAssertEqual(admission.usage, DatasetUsage(points: 60, bytes: 400))
        admission = try await other.addDataset(record("a3", alice, points: 40, bytes: 601), file: upload, quota: quota)
        XCTAssertFalse(admission.added)
        admission = try await other.addDataset(record("b1", bob, points: 100, bytes: 1000), file: upload, quota: quota)
        XCTAssertTrue(admission.added)
        let usage = try await other.datasetUsage(owner: alice)
        XCTAssertEqual(usage, DatasetUsage(points: 60, bytes: 400))
        let listed = try await other.datasets(owner: alice)
        XCTAssertEqual(listed, [record("a1", alice, points: 60, bytes: 400)])
        let all = try await other.allDatasets()
        XCTAssertEqual(all.map(\.id), ["a1", "b1"])
        let one = try await other.dataset(id: "b1")
        XCTAssertEqual(one?.owner, bob)
        let points = try await other.datasetPoints(id: "a1")
        XCTAssertEqual(points, other.sharesDatasetPoints ? try Data(contentsOf: upload) : nil)
        let removedByBob = try await other.removeDataset(id: "a1", owner: bob)
        XCTAssertNil(removedByBob)
        let removed = try await other.removeDataset(id: "a1", owner: alice)
        XCTAssertEqual(removed?.file, "a1.csv")
        let gone = try await store.dataset(id: "a1")
        XCTAssertNil(gone)
        let noPoints = try await store.datasetPoints(id: "a1")
        XCTAssertNil(noPoints)
    }

    /// Twenty uploads of 10 points by one user at once, half through each instance, against a
    /// quota of 100: exactly ten are recorded.
    func concurrentUploadsFromTwoInstancesStayWithinTheQuota() async throws {
        let (store, other) = try await stores()
        let user = try await store.createUser(tokenHash: hash(1), tokenPrefix: "gn_01010101")
        let quota = DatasetUsage(points: 100, bytes: 100_000)
        let upload = self.upload
        let added = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<20 {
                let target = n.isMultiple(of: 2) ? store : other
                let dataset = record("d\(n)", user, points: 10, bytes: 1)
                group.addTask { try await target.addDataset(dataset, file: upload, quota: quota).added }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(added, 10)
        let usage = try await other.datasetUsage(owner: user)
        XCTAssertEqual(usage, DatasetUsage(points: 100, bytes: 10))
    }

    func deletingAUserTakesItsFavouritesSettingsAndDatasets() async throws {
        let (store, other) = try await stores()
        let user = try await store.createUser(tokenHash: hash(7), tokenPrefix: "gn_07070707")
        _ = try await store.save(url: "https://x.org/1", title: "t", source: nil, publishedAt: nil, imageURL: nil, user: user)
        try await store.replaceSettings(UserSettings(newsCountry: "fr"), user: user)
        _ = try await store.addDataset(record("d1", user, points: 1, bytes: 9), file: upload, quota: DatasetUsage(points: 10, bytes: 10))
        let removed = try await other.deleteUser(user)
        XCTAssertEqual(removed.map(\.id), ["d1"])
        let holder = try await store.tokenHolder(tokenHash: hash(7))
        XCTAssertNil(holder)
        let favourites = try await store.favourites(user: user, before: nil, limit: 10)
        XCTAssertEqual(favourites, [])
        let settings = try await store.settings(user: user)
        XCTAssertEqual(settings, UserSettings())
        let all = try await store.allDatasets()
        XCTAssertEqual(all, [])
    }

    func pingAnswers() async throws {
        let (store, other) = try await stores()
        try await store.ping()
        try await other.ping()
    }
}

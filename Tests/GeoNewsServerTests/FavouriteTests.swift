import Foundation
import XCTest

/// Users, favourites and settings: tokens, isolation between users, durability.
final class FavouriteTests: XCTestCase {
    private static func article(_ n: Int) -> [String: Any] {
        [
            "url": "https://news.example.org/story/\(n)", "title": "Story \(n)", "source": "Example News",
            "publishedAt": "2026-11-21T09:30:00Z",
        ]
    }

    func testTokenIsShownOnceAndRequiredAfterwards() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        XCTAssertTrue(token.hasPrefix("gn_"))
        XCTAssertEqual(token.count, 67)
        try assertProblem(try await server.get("/v1/favourites"), 401, mentions: ["Authorization"])
        try assertProblem(
            try await server.get("/v1/favourites", token: "gn_" + String(repeating: "0", count: 64)), 401, mentions: ["not valid"])
        let list = try await server.get("/v1/favourites", token: token)
        XCTAssertEqual(list.status, 200)
        XCTAssertEqual(try list.array().count, 0)
        // Only the hash is stored: the token's text is nowhere in the database.
        server.stop()
        let database = try Data(contentsOf: server.stateDirectory.appendingPathComponent("geonews.sqlite"))
        XCTAssertNil(database.range(of: Data(token.utf8)))
        XCTAssertFalse(server.standardError.contains(token))
    }

    func testFavouritesAreNewestFirstAndNeverSavedTwice() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        for n in 1...3 {
            let saved = try await server.send("POST", "/v1/favourites", json: Self.article(n), token: token)
            XCTAssertEqual(saved.status, 201, saved.text)
        }
        let again = try await server.send("POST", "/v1/favourites", json: Self.article(2), token: token)
        XCTAssertEqual(again.status, 200)
        let list = try await server.get("/v1/favourites", token: token).array()
        XCTAssertEqual(list.map { $0["title"] as? String }, ["Story 3", "Story 2", "Story 1"])
        XCTAssertEqual(try again.object()["id"] as? Int, list[1]["id"] as? Int)
    }

    func testBadFavouriteNamesTheField() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        try assertProblem(
            try await server.send("POST", "/v1/favourites", json: ["url": "ftp://x/y", "title": "t"], token: token), 400,
            mentions: ["url", "ftp://x/y"])
        try assertProblem(
            try await server.send("POST", "/v1/favourites", json: ["url": "https://x.org/y"], token: token), 400, mentions: ["title"])
        try assertProblem(
            try await server.send("POST", "/v1/favourites", token: token, body: Data("{".utf8), contentType: "application/json"), 400,
            mentions: ["JSON"])
    }

    func testAnotherUsersTokenCannotReadOrDelete() async throws {
        let server = try ServerProcess()
        let alice = try await server.newUser(), bob = try await server.newUser()
        let saved = try await server.send("POST", "/v1/favourites", json: Self.article(1), token: alice).object()
        let id = try XCTUnwrap(saved["id"] as? Int)
        let bobs = try await server.get("/v1/favourites", token: bob).array()
        XCTAssertEqual(bobs.count, 0)
        try assertProblem(try await server.send("DELETE", "/v1/favourites/\(id)", token: bob), 404, mentions: ["\(id)"])
        let kept = try await server.get("/v1/favourites", token: alice).array()
        XCTAssertEqual(kept.count, 1)
        let deleted = try await server.send("DELETE", "/v1/favourites/\(id)", token: alice)
        XCTAssertEqual(deleted.status, 204)
        let left = try await server.get("/v1/favourites", token: alice).array()
        XCTAssertEqual(left.count, 0)
    }

    func testSettingsAreValidatedAndKeptPerUser() async throws {
        let server = try ServerProcess()
        let alice = try await server.newUser(), bob = try await server.newUser()
        let empty = try await server.get("/v1/settings", token: alice).object()
        XCTAssertEqual(empty["categories"] as? [String], [])
        let put = try await server.send(
            "PUT", "/v1/settings",
            json: [
                "newsCountry": "FR", "newsLanguage": "fr",
                "categories": ["Sports", "science"], "namesLanguage": "fr",
            ], token: alice)
        XCTAssertEqual(put.status, 200, put.text)
        let stored = try await server.get("/v1/settings", token: alice).object()
        XCTAssertEqual(stored["newsCountry"] as? String, "fr")
        XCTAssertEqual(stored["categories"] as? [String], ["sports", "science"])
        XCTAssertEqual(stored["namesLanguage"] as? String, "fr")
        let bobsSettings = try await server.get("/v1/settings", token: bob).object()
        XCTAssertNil(bobsSettings["newsCountry"] as? String)
        try assertProblem(
            try await server.send("PUT", "/v1/settings", json: ["newsCountry": "lu"], token: alice), 400, mentions: ["newsCountry", "lu"])
        try assertProblem(
            try await server.send("PUT", "/v1/settings", json: ["categories": ["gossip"]], token: alice), 400,
            mentions: ["categories", "gossip"])
        try assertProblem(
            try await server.send("PUT", "/v1/settings", json: ["namesLanguage": "xx"], token: alice), 400,
            mentions: ["namesLanguage", "xx"])
        try assertProblem(
            try await server.send("PUT", "/v1/settings", json: ["newsLanguage": "french"], token: alice), 400,
            mentions: ["newsLanguage", "french"])
    }

    func testFavouritesSurviveARestart() async throws {
        let state = ServerProcess.newStateDirectory()
        let first = try ServerProcess(stateDirectory: state)
        let token = try await first.newUser()
        _ = try await first.send("POST", "/v1/favourites", json: Self.article(7), token: token)
        XCTAssertEqual(first.stop(), 0)
        let second = try ServerProcess(stateDirectory: state)
        let list = try await second.get("/v1/favourites", token: token).array()
        XCTAssertEqual(list.map { $0["url"] as? String }, ["https://news.example.org/story/7"])
    }

    func testKillDuringWritesLosesNothingAcknowledged() async throws {
        let state = ServerProcess.newStateDirectory()
        let server = try ServerProcess(stateDirectory: state)
        let token = try await server.newUser()
        let acknowledged = LockedSet()
        // Writers keep saving while the server is killed; every 201 must be on disk.
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for n in 0..<10_000 {
                        let number = writer * 100_000 + n
                        guard let call = try? await server.send("POST", "/v1/favourites", json: Self.article(number), token: token) else {
                            return
                        }
                        if call.status == 201 { acknowledged.insert("https://news.example.org/story/\(number)") }
                    }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(1500))
                server.stop(signal: SIGKILL)
            }
        }
        XCTAssertGreaterThan(acknowledged.count, 0)
        let restarted = try ServerProcess(stateDirectory: state)
        let urls = Set(try await restarted.get("/v1/favourites", token: token).array().compactMap { $0["url"] as? String })
        XCTAssertTrue(
            acknowledged.values.isSubset(of: urls), "lost \(acknowledged.values.subtracting(urls).count) of \(acknowledged.count)")
    }
}

/// A set filled from several tasks.
final class LockedSet: @unchecked Sendable {
    private let lock = NSLock()
    private var set: Set<String> = []
    func insert(_ value: String) { lock.lock(); set.insert(value); lock.unlock() }
    var values: Set<String> { lock.lock(); defer { lock.unlock() }; return set }
    var count: Int { values.count }
}

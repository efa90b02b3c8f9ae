import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Tokens end: the user deletes itself, an operator revokes one, or it grows old.
final class TokenTests: XCTestCase {
    private static var article: [String: Any] { ["url": "https://news.example.org/story/1", "title": "Story 1"] }

    func testDeletingMeRemovesTheUserAndEverythingItOwns() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser(), other = try await server.newUser()
        do { let got = try await server.send("POST", "/v1/favourites", json: Self.article, token: token).status; XCTAssertEqual(got, 201) }
        do {
            let got = try await server.send("PUT", "/v1/settings", json: ["newsCountry": "fr"], token: token).status;
            XCTAssertEqual(got, 200)
        }
        let created = try await server.send(
            "POST", "/v1/datasets", token: token, body: Data("lat,lon\n48.85,2.35\n".utf8), contentType: "text/csv")
        let id = try XCTUnwrap(try created.object()["id"] as? String)
        do { let got = try await server.send("POST", "/v1/favourites", json: Self.article, token: other).status; XCTAssertEqual(got, 201) }

        try assertProblem(try await server.send("DELETE", "/v1/users/me"), 401)
        let deleted = try await server.send("DELETE", "/v1/users/me", token: token)
        XCTAssertEqual(deleted.status, 204, deleted.text)
        try assertProblem(try await server.get("/v1/favourites", token: token), 401, mentions: ["not valid"])
        try assertProblem(try await server.send("DELETE", "/v1/users/me", token: token), 401)
        try assertProblem(try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km"), 404, mentions: [id])
        XCTAssertFalse(FileManager.default.fileExists(atPath: server.stateDirectory.appendingPathComponent("datasets/\(id).csv").path))
        // The other user keeps theirs.
        do { let got = try await server.get("/v1/favourites", token: other).array().count; XCTAssertEqual(got, 1) }
    }

    func testATokenOlderThanItsLifetimeIs401() async throws {
        let server = try ServerProcess(arguments: ["--token-lifetime", "1s"])
        let created = try await server.send("POST", "/v1/users")
        let expiresAt = try XCTUnwrap(try created.object()["expiresAt"] as? String)
        XCTAssertNotNil(try? Date(expiresAt, strategy: .iso8601), expiresAt)
        let token = try XCTUnwrap(try created.object()["token"] as? String)
        do { let got = try await server.get("/v1/favourites", token: token).status; XCTAssertEqual(got, 200) }
        try await Task.sleep(for: .milliseconds(2200))
        let expired = try await server.get("/v1/favourites", token: token)
        try assertProblem(expired, 401, mentions: ["expired"])
        XCTAssertEqual(expired.header("WWW-Authenticate"), #"Bearer realm="geonews", error="invalid_token""#)
        server.stop()
        XCTAssertFalse(server.standardError.contains(token))
    }

    func testBadTokenLifetimesAreRefusedAtStart() throws {
        for value in ["0d", "90", "1e3s", "36501d", "99999999999999999d", "-1h"] {
            XCTAssertThrowsError(try ServerProcess(arguments: ["--token-lifetime", value]), value) {
                XCTAssertTrue("\($0)".contains("token-lifetime"), "\($0)")
            }
        }
    }

    func testAnOperatorRevokesByPrefixOrUserIdWhileTheServerRuns() async throws {
        let server = try ServerProcess()
        let first = try await server.send("POST", "/v1/users").object()
        let token = try XCTUnwrap(first["token"] as? String)
        let userID = try XCTUnwrap(first["id"] as? Int)
        let second = try await server.newUser()
        do { let got = try await server.send("POST", "/v1/favourites", json: Self.article, token: token).status; XCTAssertEqual(got, 201) }

        let byPrefix = try Self.revoke(String(token.prefix(11)), state: server.stateDirectory)
        XCTAssertEqual(byPrefix.status, 0, byPrefix.output)
        XCTAssertEqual(byPrefix.output, "revoked the token of user \(userID)\n")
        try assertProblem(try await server.get("/v1/favourites", token: token), 401, mentions: ["revoked"])
        do { let got = try await server.get("/v1/favourites", token: second).status; XCTAssertEqual(got, 200) }

        let again = try Self.revoke("\(userID)", state: server.stateDirectory)
        XCTAssertEqual(again.status, 66, "an already revoked token: \(again.output)")
        let byWhole = try Self.revoke(second, state: server.stateDirectory)
        XCTAssertEqual(byWhole.status, 0, byWhole.output)
        XCTAssertFalse(byWhole.output.contains(second))
        try assertProblem(try await server.get("/v1/favourites", token: second), 401, mentions: ["revoked"])
        XCTAssertEqual(try Self.revoke("nonsense", state: server.stateDirectory).status, 64)
        XCTAssertEqual(try Self.revoke("1", state: ServerProcess.newStateDirectory()).status, 66)
    }

    /// `geonews-serve tokens revoke SELECTOR --state-dir STATE`: its status and what it printed.
    private static func revoke(_ selector: String, state: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = ["tokens", "revoke", selector, "--state-dir", state.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }
}

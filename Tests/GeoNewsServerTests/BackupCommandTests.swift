import Foundation
import XCTest

/// `geonews-serve backup` and `restore` as an operator runs them: the server's state copied
/// while it serves, put back into a new state directory that the server then serves from, and
/// each refusal one line with its documented exit code.
final class BackupCommandTests: XCTestCase {
    private func serve(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let serve = ServerProcess.executable.path
        guard FileManager.default.isExecutableFile(atPath: serve) else { throw XCTSkip("geonews-serve is not built") }
        var environment = ProcessInfo.processInfo.environment
        environment["GEONEWS_DATA"] = ServerProcess.packageRoot.appendingPathComponent("Data").path
        environment["GEONEWS_STORE"] = nil
        return try SharedStoreTests.run(serve, arguments, environment: environment)
    }

    func testABackupOfARunningServerRestoresToAStateTheServerServes() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let saved = try await server.send("POST", "/v1/favourites", json: ["url": "https://example.org/a", "title": "A"], token: token)
        XCTAssertEqual(saved.status, 201, saved.text)

        let backups = ServerProcess.newStateDirectory()
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        let file = backups.appendingPathComponent("geonews.backup").path
        let backup = try serve(["backup", "--state-dir", server.stateDirectory.path, "--to", file])
        XCTAssertEqual(backup.status, 0, backup.output)
        XCTAssertTrue(backup.output.contains("1 users, 1 favourites"), backup.output)

        let restored = ServerProcess.newStateDirectory()
        let restore = try serve(["restore", "--state-dir", restored.path, "--from", file])
        XCTAssertEqual(restore.status, 0, restore.output)
        let second = try ServerProcess(stateDirectory: restored)
        let listed = try await second.get("/v1/favourites", token: token)
        XCTAssertEqual(listed.status, 200, listed.text)
        XCTAssertTrue(listed.text.contains("https://example.org/a"), listed.text)

        let again = try serve(["backup", "--state-dir", server.stateDirectory.path, "--to", file])
        XCTAssertEqual(again.status, 73, again.output)
        XCTAssertEqual(again.output.split(separator: "\n").count, 1, again.output)
        XCTAssertTrue(again.output.contains("exists; a backup never replaces a file"), again.output)
        let intoUsed = try serve(["restore", "--state-dir", restored.path, "--from", file])
        XCTAssertEqual(intoUsed.status, 73, intoUsed.output)
        XCTAssertTrue(intoUsed.output.contains("is not empty"), intoUsed.output)
    }

    func testEachRefusalIsOneLineWithItsExitCode() throws {
        let nowhere = ServerProcess.newStateDirectory()
        let missingFolder = try serve(["backup", "--state-dir", nowhere.path, "--to", nowhere.appendingPathComponent("x/y.backup").path])
        XCTAssertEqual(missingFolder.status, 66, missingFolder.output)
        XCTAssertTrue(missingFolder.output.contains("no state database at"), missingFolder.output)
        let noFile = try serve(["restore", "--state-dir", nowhere.path, "--from", nowhere.appendingPathComponent("none").path])
        XCTAssertEqual(noFile.status, 66, noFile.output)
        let postgres = try serve(["backup", "--store", "postgres://u:secret@127.0.0.1:1/db", "--to", "/tmp/x.backup"])
        XCTAssertEqual(postgres.status, 64, postgres.output)
        XCTAssertTrue(postgres.output.contains("pg_dump"), postgres.output)
        XCTAssertFalse(postgres.output.contains("secret"), postgres.output)
        let noTarget = try serve(["backup", "--state-dir", nowhere.path])
        XCTAssertEqual(noTarget.status, 64, noTarget.output)
    }
}

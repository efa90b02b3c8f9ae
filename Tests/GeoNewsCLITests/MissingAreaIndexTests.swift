import Foundation
import XCTest

/// The area index is built on first use, not committed: where it is missing or from another
/// build, every command that resolves says so in one line that names the file and the command
/// that makes it, with the data exit code, 65.
final class MissingAreaIndexTests: XCTestCase {
    private func emptyFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-no-areas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.path
    }

    func testEveryResolvingCommandNamesTheMissingIndexAndTheCommandThatBuildsIt() throws {
        let folder = try emptyFolder()
        let runs = [
            try CommandRunner.geonews(
                ["--lat", "48.8566", "--lon", "2.3522", "--no-headlines"],
                environment: ["GEONEWS_BUILD_DATA": folder]),
            try CommandRunner.geonews(
                ["resolve", "-"], environment: ["GEONEWS_BUILD_DATA": folder],
                input: Data("lat,lon\n48.8566,2.3522\n".utf8)),
        ]
        for run in runs {
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertEqual(run.stdout, "")
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("\(folder)/area-index.bin"), run.stderr)
            XCTAssertTrue(run.stderr.contains("Scripts/ensure-areas"), run.stderr)
        }
    }

    func testAnIndexThatIsNotOneIsDamagedOrStaleNeverAnAnswer() throws {
        let folder = try emptyFolder()
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/area-index.bin", contents: Data(repeating: 0x41, count: 4096)))
        let run = try CommandRunner.geonews(
            ["--lat", "48.8566", "--lon", "2.3522", "--no-headlines"],
            environment: ["GEONEWS_BUILD_DATA": folder])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("\(folder)/area-index.bin"), run.stderr)
        XCTAssertTrue(run.stderr.contains("Scripts/ensure-areas"), run.stderr)
    }
}

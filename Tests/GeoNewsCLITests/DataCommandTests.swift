import Foundation
import XCTest

/// `geonews data install|path`: one line and exit 65 when the index or its pack is not there.
final class DataCommandTests: XCTestCase {
    private func emptyFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.path
    }

    func testPathNamesTheMissingIndexAndTheCommandThatInstallsIt() throws {
        let folder = try emptyFolder()
        let run = try CommandRunner.geonews(["data", "path"], environment: ["GEONEWS_BUILD_DATA": folder])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "geonews: \(folder)/area-index.bin is missing; run `geonews data install`\n")
    }

    func testPathPrintsTheIndexTheResolverReads() throws {
        let folder = try emptyFolder()
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/area-index.bin", contents: Data([0])))
        let run = try CommandRunner.geonews(["data", "path"], environment: ["GEONEWS_BUILD_DATA": folder])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "\(folder)/area-index.bin\n")
    }

    func testInstallWithoutAPackNamesThePackAndWritesNothing() throws {
        let data = try emptyFolder(), target = try emptyFolder()
        let record = CommandRunner.packageRoot.path + "/Data/area-index.json"
        try FileManager.default.copyItem(atPath: record, toPath: data + "/area-index.json")
        try FileManager.default.copyItem(atPath: CommandRunner.packageRoot.path + "/Data/countries.json", toPath: data + "/countries.json")
        let run = try CommandRunner.geonews(["data", "install", "--data", data, "--to", target])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(data)/area-index.pack"), run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target), [])
    }
}

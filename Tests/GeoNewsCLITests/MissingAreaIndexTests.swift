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

    /// A damaged `places.tsv.gz` stops `geonews --lat --lon` with one line naming the file and
    /// the line, exit 65, and nothing on standard output.
    func testADamagedPlacesFileIsNamedWithItsLine() throws {
        let root = try emptyFolder()
        let data = root + "/Data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let source = CommandRunner.packageRoot.appendingPathComponent("Data").path
        for name in try FileManager.default.contentsOfDirectory(atPath: source) where name != "places.tsv.gz" {
            try FileManager.default.createSymbolicLink(atPath: data + "/" + name, withDestinationPath: source + "/" + name)
        }
        // A header, one good line and a third with a latitude out of range, gzip-compressed.
        let text =
            "geonameid\tname\tlat\tlon\tcountry\tadmin1\tpopulation\n2988507\tParis\t48.85341\t2.3488\tFR\t11\t2138551\n"
            + "1\tNowhere\t95.5\t0\tFR\t\t0\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/places.tsv"))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-n", root + "/places.tsv"]
        try gzip.run()
        gzip.waitUntilExit()
        try FileManager.default.moveItem(atPath: root + "/places.tsv.gz", toPath: data + "/places.tsv.gz")
        let build = CommandRunner.packageRoot.appendingPathComponent(".build-data").path
        let folder = root + "/build"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["area-index.bin", "land-index.bin", "country-areas.bin"] {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: build + "/" + name)
        }
        let runs = [
            try CommandRunner.geonews(
                ["--lat", "48.8566", "--lon", "2.3522", "--no-headlines", "--data", data], environment: ["GEONEWS_BUILD_DATA": folder])
        ]
        for run in runs {
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("\(data)/places.tsv.gz"), run.stderr)
            XCTAssertTrue(run.stderr.contains("line 3: latitude \"95.5\""), run.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/places.bin"), "nothing is written from a bad source")
    }
}

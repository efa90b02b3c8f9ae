import Foundation
import XCTest

/// `geonews-index`'s arguments, parsed by swift-argument-parser as every other command's: a bad
/// combination exits 64 naming the flags, a data folder that is not there exits 65 naming it.
final class IndexCommandTests: XCTestCase {
    func index(_ arguments: [String]) throws -> CommandRunner.Output {
        try CommandRunner.geonews(arguments, executable: "geonews-index")
    }

    func testHelpListsEveryModeAndExitsZero() throws {
        let out = try index(["--help"])
        XCTAssertEqual(out.status, 0, out.stderr)
        for flag in ["--areas", "--area-index", "--pack", "--land", "--land-pack", "--check", "--data <dir>", "--geometry <dir>"] {
            XCTAssertTrue(out.stdout.contains(flag), "\(flag) in\n\(out.stdout)")
        }
    }

    func testCheckWithAModeIsABadUsageNamingTheMode() throws {
        let out = try index(["--check", "--land"])
        XCTAssertEqual(out.status, 64)
        XCTAssertTrue(out.stderr.contains("--check goes with no mode, not with --land"), out.stderr)
    }

    func testTwoModesAreABadUsageNamingBoth() throws {
        let out = try index(["--land", "--pack"])
        XCTAssertEqual(out.status, 64)
        XCTAssertTrue(out.stderr.contains("--pack") && out.stderr.contains("--land"), out.stderr)
    }

    func testAnUnknownFlagIsNamed() throws {
        let out = try index(["--frobnicate"])
        XCTAssertEqual(out.status, 64)
        XCTAssertTrue(out.stderr.contains("--frobnicate"), out.stderr)
    }

    func testAMissingGeometryFolderIsNamedAndNothingIsWritten() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-index-\(UUID().uuidString)").path
        let out = try index(["--land-pack", "--geometry", missing])
        XCTAssertEqual(out.status, 65, out.stderr)
        XCTAssertTrue(out.stderr.hasPrefix("geonews-index: ") && out.stderr.contains(missing + "/land-index.bin"), out.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }
}

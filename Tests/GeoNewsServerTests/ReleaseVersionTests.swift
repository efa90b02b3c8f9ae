import GeoNews
import XCTest

/// One version, written once (Sources/GeoNewsVersion), shown by every door: both executables'
/// `--version`, `/healthz`, the served OpenAPI description, and a CHANGELOG section.
final class ReleaseVersionTests: XCTestCase {
    func testVersionIsSemanticAndHasAChangelogSection() throws {
        let version = GeoNewsRelease.version
        XCTAssertNotNil(version.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression), version)
        let changelog = try String(contentsOf: ServerProcess.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        XCTAssertTrue(changelog.contains("## [\(version)] - "), "CHANGELOG.md has no section for \(version)")
    }

    func testBothExecutablesPrintTheVersion() throws {
        XCTAssertEqual(try ServerProcess.runCLI(["--version"]), GeoNewsRelease.version + "\n")
        let serve = try ServerProcess.runOnce(["--version"])
        XCTAssertEqual(serve.status, 0)
        XCTAssertEqual(serve.output, GeoNewsRelease.version + "\n")
    }

    func testHealthAndOpenAPIDescriptionCarryTheVersion() async throws {
        let server = try ServerProcess()
        let health = try await server.get("/healthz").object()
        XCTAssertEqual(health["status"] as? String, "ok")
        XCTAssertEqual(health["version"] as? String, GeoNewsRelease.version)
        let description = try await server.get("/openapi.yaml").text
        XCTAssertTrue(description.contains("\n  version: \"\(GeoNewsRelease.version)\"\n"), String(description.prefix(400)))
        XCTAssertFalse(description.contains("0.0.0-unreleased"))
    }
}

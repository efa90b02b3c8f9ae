import Foundation
import XCTest

/// `geonews cluster` through the real executable: coordinate options take negative values in
/// both spellings, and number options echo what was typed.
final class ClusterCommandTests: XCTestCase {
    private func features(_ r: CommandRunner.Output) throws -> [[String: Any]] {
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(CommandRunner.json(r.stdout)["features"] as? [[String: Any]])
    }

    private func pointCount(_ features: [[String: Any]]) -> Int {
        features.map { ($0["properties"] as? [String: Any])?["point_count"] as? Int ?? 1 }.reduce(0, +)
    }

    func testANegativeBoxIsAValueWithOrWithoutAnEqualsSign() throws {
        let spaced = try CommandRunner.geonews(["cluster", "--bbox", "-180,-90,180,90", "--zoom", "0"])
        let joined = try CommandRunner.geonews(["cluster", "--bbox=-180,-90,180,90", "--zoom", "0"])
        XCTAssertEqual(pointCount(try features(spaced)), 54, "the whole world holds every marker")
        XCTAssertEqual(spaced.stdout, joined.stdout)
        let west = try CommandRunner.geonews(["cluster", "--bbox", "-130,-60,-30,60", "--zoom", "4"])
        let ids = try features(west).compactMap { ($0["properties"] as? [String: Any])?["id"] as? String }
        XCTAssertTrue(ids.contains("BR") && ids.contains("MX") && !ids.contains("FR"), "\(ids)")
    }

    func testANegativeCentreIsAValueWithOrWithoutAnEqualsSign() throws {
        let spaced = try CommandRunner.geonews(["cluster", "--center", "-33.8,151.2", "--altitude", "15000km", "--summary"])
        let joined = try CommandRunner.geonews(["cluster", "--center=-33.8,151.2", "--altitude", "15000km", "--summary"])
        XCTAssertEqual(spaced.status, 0, spaced.stderr)
        XCTAssertTrue(spaced.stdout.hasPrefix("altitude 15000km at -33.8° in 390x844"), spaced.stdout)
        XCTAssertTrue(spaced.stdout.contains(" AU"), spaced.stdout)
        XCTAssertEqual(spaced.stdout, joined.stdout)
        let bench = try CommandRunner.geonews([
            "bench", "cluster", "--points", "2000", "--altitudes", "1000km",
            "--center", "-33.8,151.2", "--repeats", "1",
        ])
        XCTAssertEqual(bench.status, 0, bench.stderr)
    }

    func testNumbersAreEchoedAsTyped() throws {
        let cases: [([String], String)] = [
            (["cluster", "--zoom", "1", "--radius", "1e400"], "The value '1e400' is invalid for '--radius <radius>': not a finite number"),
            (["cluster", "--zoom", "1", "--extent=-1e999"], "The value '-1e999' is invalid for '--extent <extent>': not a finite number"),
            (["cluster", "--zoom", "1e400"], "zoom '1e400' is not a number"),
            (["cluster", "--altitude", "1e400km"], "altitude '1e400km' is not a number followed by km or m"),
            (["cluster", "--altitude", "10km", "--center", "1e400,0"], "center '1e400,0': latitude 1e400 is not a finite number"),
            (["cluster", "--zoom", "1", "--bbox", "-1e400,0,1,1"], "bbox '-1e400,0,1,1' is not four numbers W,S,E,N"),
            (["cluster", "--zoom", "1", "--tile-size", "1e400"], "The value '1e400' is invalid for '--tile-size <tile-size>'"),
        ]
        for (args, message) in cases {
            let r = try CommandRunner.geonews(args)
            XCTAssertEqual(r.status, 64, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }
}

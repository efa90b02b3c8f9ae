import Foundation
import XCTest

/// `geonews resolve` through the real executable: the columns it writes and their values for
/// real positions from the area index; the writers' formats are checked in GeoNewsTracesTests'
/// `ZoneColumnsTests`.
final class ResolveCommandTests: XCTestCase {
    private func input(_ text: String, _ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-resolve-\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testTheTimeZoneColumnIsAlwaysWrittenAndTheBorderDistanceOnlyOnRequest() throws {
        let file = try input("name,lat,lon\nparis,48.8566,2.3522\n", "fixes.csv")
        let plain = try CommandRunner.geonews(["resolve", "--no-progress", file])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            plain.stdout.split(separator: "\n").first,
            "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error")
        let asked = try CommandRunner.geonews(["resolve", "--no-progress", "--border-distance", file])
        XCTAssertEqual(asked.status, 0, asked.stderr)
        let rows = asked.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(
            rows.first, "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,border_distance_km,error")
        XCTAssertTrue(rows[1].hasPrefix("paris,48.8566,2.3522,FR,FR,inside,0.000,Europe/Paris,"), rows[1])
        let fields = rows[1].split(separator: ",", omittingEmptySubsequences: false)
        XCTAssertEqual(fields.count, 10)
        // Paris is about 170 km from the nearest edge of France (the Belgian border).
        let km = try XCTUnwrap(Double(fields[8]), rows[1])
        XCTAssertEqual(km, 172, accuracy: 5)
        XCTAssertEqual(fields[9], "")
        XCTAssertTrue(plain.stdout.contains("paris,48.8566,2.3522,FR,FR,inside,0.000,Europe/Paris,\n"), plain.stdout)
    }

    func testTheOutputCannotBeTheInput() throws {
        let text = "name,lat,lon\nparis,48.8566,2.3522\n"
        let file = try input(text, "fixes.csv")
        let r = try CommandRunner.geonews(["resolve", "--no-progress", file, "-o", file])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertEqual(
            r.stderr,
            "geonews resolve: the output \(file) is the input \(file): writing it would destroy the input; choose another output file\n")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), text)
        // Written over, an older output of any length becomes exactly the new rows.
        let out = try input(String(repeating: "old row\n", count: 1000), "out.csv")
        let w = try CommandRunner.geonews(["resolve", "--no-progress", file, "-o", out])
        XCTAssertEqual(w.status, 0, w.stderr)
        XCTAssertEqual(
            try String(contentsOfFile: out, encoding: .utf8),
            "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error\n"
                + "paris,48.8566,2.3522,FR,FR,inside,0.000,Europe/Paris,\n")
    }

    func testNDJSONRowsCarryTheTimeZoneKey() throws {
        let file = try input("{\"lat\":0,\"lon\":-150}\n", "fixes.ndjson")
        let r = try CommandRunner.geonews(["resolve", "--no-progress", "--border-distance", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        let row = try CommandRunner.json(r.stdout)
        XCTAssertEqual(row["time_zone"] as? String, "Etc/GMT+10", "the open Pacific at 150° W keeps UTC−10: \(r.stdout)")
        XCTAssertTrue(row["border_distance_km"] is NSNull, "the open Pacific is in no country: \(r.stdout)")
    }

    /// `--place` in CSV (the fast path by index) and NDJSON (row by row): the nearest town in the
    /// fix's country, none far out at sea, and a bad row still a row.
    func testThePlaceColumnsNameTheNearestTown() throws {
        let csv = try input("name,lat,lon\ncape,-33.9249,18.4241\nocean,0,-30\nbad,95,0\n", "fixes.csv")
        let r = try CommandRunner.geonews(["resolve", "--no-progress", "--place", csv])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            rows.first,
            "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,place_name,place_geonameid,place_distance_km,error"
        )
        XCTAssertEqual(rows.count, 4, r.stdout)
        XCTAssertTrue(rows[1].hasSuffix(",ZA,ZA,inside,0.000,Africa/Johannesburg,Cape Town,3369157,0.132,"), rows[1])
        XCTAssertTrue(rows[2].hasSuffix(",Etc/GMT+2,,,,"), "no place within 50 km of 0, -30: \(rows[2])")
        XCTAssertTrue(rows[3].hasPrefix("bad,95,0,,,,,,,,,"), rows[3])
        let ndjson = try input("{\"lat\":-33.9249,\"lon\":18.4241}\n{\"lat\":0,\"lon\":-30}\n", "fixes.ndjson")
        let n = try CommandRunner.geonews(["resolve", "--no-progress", "--place", ndjson])
        XCTAssertEqual(n.status, 0, n.stderr)
        let lines = n.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, n.stdout)
        let cape = try CommandRunner.json(lines[0]), ocean = try CommandRunner.json(lines[1])
        XCTAssertEqual(cape["place_name"] as? String, "Cape Town")
        XCTAssertEqual(cape["place_geonameid"] as? Int, 3_369_157)
        XCTAssertEqual(try XCTUnwrap(cape["place_distance_km"] as? Double), 0.132, accuracy: 0.0005)
        for key in ["place_name", "place_geonameid", "place_distance_km"] {
            XCTAssertTrue(ocean[key] is NSNull, "\(key) in \(lines[1])")
        }
    }

    /// `--region` in CSV, with `--place` after it, and in NDJSON: the region of the fix's
    /// country (the nearest one in its waters), nothing at sea beyond them, and an error row.
    func testTheRegionColumnsNameTheRegion() throws {
        let csv = try input(
            "name,lat,lon\nlyon,45.764,4.8357\nmarseille-sea,43.12,5.37\nocean,0,-30\nguyane,4.93,-52.33\nbad,95,0\n", "fixes.csv")
        let r = try CommandRunner.geonews(["resolve", "--no-progress", "--region", "--place", csv])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            rows.first,
            "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,region_iso3166_2,region_geonames,region_name,place_name,place_geonameid,place_distance_km,error"
        )
        XCTAssertEqual(rows.count, 6, r.stdout)
        XCTAssertTrue(rows[1].contains(",Europe/Paris,FR-ARA,FR.84,Auvergne-Rhône-Alpes,Lyon 01,"), rows[1])
        XCTAssertTrue(rows[2].contains(",FR-PAC,FR.93,Provence-Alpes-Côte d'Azur,Sormiou,"), rows[2])
        XCTAssertTrue(rows[3].hasSuffix(",Etc/GMT+2,,,,,,,"), rows[3])
        XCTAssertTrue(rows[4].contains(",GF,FR,sovereign,0.000,America/Cayenne,,GF.GF,Guyane,"), "no ISO 3166-2 code: \(rows[4])")
        XCTAssertTrue(rows[5].hasPrefix("bad,95,0,,,,,,,,,,,,"), rows[5])
        let ndjson = try input("{\"lat\":48.137,\"lon\":11.575}\n{\"lat\":0,\"lon\":-30}\n", "fixes.ndjson")
        let n = try CommandRunner.geonews(["resolve", "--no-progress", "--region", ndjson])
        XCTAssertEqual(n.status, 0, n.stderr)
        let lines = n.stdout.split(separator: "\n").map(String.init)
        let munich = try CommandRunner.json(lines[0]), ocean = try CommandRunner.json(lines[1])
        XCTAssertEqual(munich["region_iso3166_2"] as? String, "DE-BY")
        XCTAssertEqual(munich["region_geonames"] as? String, "DE.02")
        XCTAssertEqual(munich["region_name"] as? String, "Bavaria")
        XCTAssertNil(munich["place_name"], "no place columns without --place")
        for key in ["region_iso3166_2", "region_geonames", "region_name"] {
            XCTAssertTrue(ocean[key] is NSNull, "\(key) in \(lines[1])")
        }
    }

    /// `--summary` with `--region` counts the rows by region (ISO 3166-2, else GeoNames' code),
    /// the same counts as the rows written.
    func testTheSummaryCountsRowsByRegion() throws {
        let csv = try input(
            "lat,lon\n45.764,4.8357\n45.75,4.85\n43.12,5.37\n48.137,11.575\n4.93,-52.33\n0,-30\n95,0\n", "fixes.csv")
        let json = csv + ".summary.json"
        let r = try CommandRunner.geonews(["resolve", "--no-progress", "--region", "--summary", "--summary-json", json, csv])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("regions: FR-ARA 2, DE-BY 1, FR-PAC 1, GF.GF 1; without a region 1\n"), r.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        XCTAssertEqual(summary["regions"] as? [String: Int], ["FR-ARA": 2, "DE-BY": 1, "FR-PAC": 1, "GF.GF": 1])
        let plain = try CommandRunner.geonews(["resolve", "--no-progress", "--summary", csv])
        XCTAssertFalse(plain.stderr.contains("regions:"), "no region line without --region: \(plain.stderr)")
    }

    func testHelpDocumentsTheNewColumnsAndTheMeaningOfCountry() throws {
        let r = try CommandRunner.geonews(["resolve", "--help"])
        XCTAssertEqual(r.status, 0)
        for text in [
            "time_zone", "--border-distance", "border_distance_km", "territorial sea", "--place", "place_geonameid", "--region",
            "region_geonames",
        ] {
            XCTAssertTrue(r.stdout.contains(text), "\(text) in: \(r.stdout)")
        }
        let locate = try CommandRunner.geonews(["locate", "--help"])
        for text in ["timeZone", "utcOffset", "borderDistanceKm", "territorial sea"] {
            XCTAssertTrue(locate.stdout.contains(text), "\(text) in: \(locate.stdout)")
        }
    }

    /// Counts that size threads or rows are bounded: `4 * workers + 2` chunks in flight
    /// overflowed for the largest `--workers`, and a column position set the width of rows.
    func testWorkerCountsAndColumnPositionsHaveLimits() throws {
        let file = try input("48.85,2.35\n", "fixes.csv")
        let workers = try CommandRunner.geonews(["resolve", "--no-progress", "--workers", "9223372036854775807", file])
        XCTAssertEqual(workers.status, 64, workers.stderr)
        XCTAssertTrue(workers.stderr.contains("--workers 9223372036854775807 is outside 1…1024"), workers.stderr)
        let column = try CommandRunner.geonews(["resolve", "--no-progress", "--no-header", "--lat-col", "9223372036854775807", file])
        XCTAssertEqual(column.status, 64, column.stderr)
        XCTAssertTrue(column.stderr.contains("--lat-col 9223372036854775807 is past column 10000"), column.stderr)
        XCTAssertEqual(try CommandRunner.geonews(["resolve", "--no-progress", "--no-header", "--workers", "1024", file]).status, 0)
    }
}

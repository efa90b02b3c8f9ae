import Foundation
import GeoNewsBoundaries
import GeoNewsBoundaryBuilding
import XCTest

/// The web map's base layer as `geonews-index` builds it (its bytes are compared with the
/// committed Data/basemap.geojson by `geonews-index --check` in Scripts/test).
final class BasemapTests: XCTestCase {
    /// Built once for all the tests here (about 3 s in a debug build).
    private static let bytes = Result { try buildBytes() }
    nonisolated(unsafe) private static let built = Result { try buildFeatures() }

    private func features() throws -> [[String: Any]] { try Self.built.get() }

    private static func buildBytes() throws -> [UInt8] {
        let catalogue = try Catalogue.loadJSON(from: TestData.directory)
        return try BasemapBuilder().build(boundaries: BoundaryFile(directory: TestData.directory), countries: catalogue.countries)
    }

    private static func buildFeatures() throws -> [[String: Any]] {
        let bytes = try Self.bytes.get()
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        XCTAssertEqual(root["type"] as? String, "FeatureCollection")
        return try XCTUnwrap(root["features"] as? [[String: Any]])
    }

    func testEveryEntryHasAShapeAndTheNewsCountriesAreMarked() throws {
        let all = try features()
        XCTAssertEqual(all.count, 258)
        let properties = all.compactMap { $0["properties"] as? [String: Any] }
        let news = properties.filter { $0["news"] as? Bool == true }.compactMap { $0["iso2"] as? String }
        XCTAssertEqual(news.count, 54)
        XCTAssertTrue(news.contains("FR") && news.contains("SG") && news.contains("HK"))
        XCTAssertFalse(news.contains("LU"))
    }

    func testTinyCountriesKeepAShapeTooSmallToSimplify() throws {
        for feature in try features() {
            let p = try XCTUnwrap(feature["properties"] as? [String: Any])
            guard let iso2 = p["iso2"] as? String, ["VA", "MC", "SM"].contains(iso2) else { continue }
            let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
            let polygons = try XCTUnwrap(geometry["coordinates"] as? [[[[Double]]]])
            XCTAssertEqual(polygons.count, 1, iso2)
            XCTAssertGreaterThanOrEqual(polygons[0][0].count, 4, "\(iso2) shell has fewer than 3 distinct vertices")
        }
    }

    func testLesothoIsAHoleInSouthAfrica() throws {
        let za = try XCTUnwrap(try features().first { ($0["properties"] as? [String: Any])?["iso2"] as? String == "ZA" })
        let polygons = try XCTUnwrap((za["geometry"] as? [String: Any])?["coordinates"] as? [[[[Double]]]])
        let largest = try XCTUnwrap(polygons.max { $0[0].count < $1[0].count })
        XCTAssertEqual(largest.count, 2, "South Africa's mainland should have exactly one hole, Lesotho")
    }

    func testEveryFeatureIsValidGeometryWithShellsCounterClockwise() throws {
        let check = try BasemapCheck(geojson: try Self.bytes.get(), path: "built")
        XCTAssertEqual(check.faults, [])
        XCTAssertEqual(check.features, 258)
        XCTAssertGreaterThan(check.shells, 1500)
    }

    func testTheCommittedBaseMapIsTheValidOneThatIsBuilt() throws {
        let path = TestData.directory.file("basemap.geojson")
        let committed = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(try BasemapCheck(geojson: committed, path: path).faults, [])
        XCTAssertTrue(committed == (try Self.bytes.get()), "rebuild Data/basemap.geojson with geonews-index")
    }

    func testTheCheckFindsACrossedRingAClockwiseShellAndAnOpenRing() throws {
        let json = #"""
            {"type":"FeatureCollection","features":[
             {"type":"Feature","properties":{"id":"BOW"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}},
             {"type":"Feature","properties":{"id":"CW"},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[0,1],[1,1],[1,0],[0,0]]]]}},
             {"type":"Feature","properties":{"id":"OPEN"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}},
             {"type":"Feature","properties":{"id":"OK"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[2,1],[1,1]]]}}]}
            """#
        let check = try BasemapCheck(geojson: Array(json.utf8), path: "test")
        XCTAssertEqual(check.features, 4)
        XCTAssertEqual(check.shells, 4)
        XCTAssertEqual(check.holes, 1)
        XCTAssertTrue(check.faults.contains { $0.hasPrefix("BOW: Self-intersection") }, "\(check.faults)")
        XCTAssertTrue(check.faults.contains("CW polygon 0: shell is clockwise"), "\(check.faults)")
        XCTAssertTrue(check.faults.contains { $0.hasPrefix("OPEN polygon 0: shell is not a closed ring") }, "\(check.faults)")
        XCTAssertFalse(check.faults.contains { $0.hasPrefix("OK") }, "\(check.faults)")
    }
}

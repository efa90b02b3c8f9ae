import Foundation
import GeoNewsBoundaries
import XCTest

/// The web map's base layer as `geonews-index` builds it (its bytes are compared with the
/// committed Data/basemap.geojson by `geonews-index --check` in Scripts/test).
final class BasemapTests: XCTestCase {
    /// Built once for all the tests here (about 3 s in a debug build).
    nonisolated(unsafe) private static let built = Result { try buildFeatures() }

    private func features() throws -> [[String: Any]] { try Self.built.get() }

    private static func buildFeatures() throws -> [[String: Any]] {
        let catalogue = try Catalogue.loadJSON(from: TestData.directory)
        let bytes = try BasemapBuilder().build(boundaries: BoundaryFile(directory: TestData.directory),
                                               countries: catalogue.countries)
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
}

import Foundation
import XCTest

@testable import GeoNewsTraces

/// GIS readers (OGR, fiona, geopandas) give each property one type per layer and drop the
/// values of any other type, so a property must never be a scalar in one feature and an
/// array in another.
final class GeoJSONPropertyTypeTests: XCTestCase {
    let mixed = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]},"properties":{"name":"p"}},
          {"type":"Feature","geometry":{"type":"LineString","coordinates":[[5,5],[15,5],[500,1]]},"properties":{"name":"l"}},
          {"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[15,-5]]},"properties":{"name":"m"}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[15,-5]},"properties":{"name":"q"}},
          {"type":"Feature","geometry":{"type":"Polygon","coordinates":[]},"properties":{"name":"bad"}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[5,95]},"properties":{"name":"far"}}
        ]}
        """

    /// The JSON type of a decoded value; nil for null, which every type allows.
    private func type(_ value: Any) -> String? {
        switch value {
        case is NSNull: return nil
        case is String: return "string"
        case is [Any]: return "array"
        case is [String: Any]: return "object"
        default: return "number"
        }
    }

    func testEveryPropertyKeepsOneJSONTypeAcrossFeatures() throws {
        for borderDistance in [false, true] {
            let (text, _) = try resolveBatch(mixed, name: "a.geojson") { $0.includesBorderDistance = borderDistance }
            let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
            let properties = try XCTUnwrap(collection["features"] as? [[String: Any]]).map { $0["properties"] as? [String: Any] ?? [:] }
            XCTAssertEqual(properties.count, 6)
            var types: [String: Set<String>] = [:]
            for p in properties {
                for (key, value) in p { if let t = type(value) { types[key, default: []].insert(t) } }
            }
            for (key, seen) in types {
                XCTAssertEqual(seen.count, 1, "\(key) is \(seen.sorted().joined(separator: " and ")) in different features")
            }
            XCTAssertEqual(types["distance_km"], ["number"])
            XCTAssertEqual(types["vertex_distance_km"], ["array"])
            XCTAssertEqual(types["error"], ["string"], "the Polygon and the point beyond the pole")
            XCTAssertEqual(types["vertex_error"], ["array"])
            XCTAssertEqual(properties[0].keys.contains("border_distance_km"), borderDistance)
            // Points carry the scalars, lines and multipoints the arrays, and not the other's.
            XCTAssertEqual(properties[0]["country_iso2"] as? String, "AA")
            XCTAssertNil(properties[0]["vertex_country_iso2"])
            XCTAssertEqual((properties[1]["vertex_country_iso2"] as? [Any])?.map { $0 as? String }, ["AA", "BB", nil])
            XCTAssertNil(properties[1]["country_iso2"])
            XCTAssertEqual((properties[2]["vertex_country_iso2"] as? [Any])?.first as? String, "CC")
            XCTAssertTrue((properties[4]["error"] as? String)?.contains("geometry type Polygon") == true)
        }
    }
}

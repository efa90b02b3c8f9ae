import Foundation
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

final class ClusterGeoJSONTests: XCTestCase {
    /// Two points 0.06° apart near Suva cluster at zoom 2; Apia stays alone.
    func testClustersAndPointsCarryTheirDocumentedProperties() throws {
        let points = [
            Coordinate(latitude: -18.14, longitude: 178.44), Coordinate(latitude: -18.2, longitude: 178.5),
            Coordinate(latitude: -13.83, longitude: -171.76),
        ]
        let index = try ClusterIndex(points: points)
        let features = try index.clusters(in: ClusterQueryText.bounds("170,-20,-170,20"), zoom: 2)
        let text = try index.featureCollection(features, ids: ["a", "d\"q", "b"], names: ["Suva", nil, "Apia\n"])
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(root["type"] as? String, "FeatureCollection")
        let list = try XCTUnwrap(root["features"] as? [[String: Any]])
        XCTAssertEqual(list.count, 2)
        let props = list.compactMap { $0["properties"] as? [String: Any] }
        let cluster = try XCTUnwrap(props.first { $0["cluster"] as? Bool == true })
        XCTAssertEqual(cluster["point_count"] as? Int, 2)
        XCTAssertEqual(cluster["members"] as? [String], ["a", "d\"q"])
        XCTAssertEqual(cluster["expansion_zoom"] as? Int, 9)
        let id = try XCTUnwrap(features.compactMap(\.clusterID).first)
        XCTAssertEqual(cluster["cluster_id"] as? UInt64, id.rawValue)
        let single = try XCTUnwrap(props.first { $0["id"] != nil })
        XCTAssertEqual(single["id"] as? String, "b")
        XCTAssertEqual(single["name"] as? String, "Apia\n")
        let geometry = try XCTUnwrap(list.first { ($0["properties"] as? [String: Any])?["id"] != nil }?["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["coordinates"] as? [Double], [-171.76, -13.83])
        XCTAssertTrue(text.hasPrefix(#"{"type":"FeatureCollection","features":[{"type":"Feature","#), text)
        XCTAssertTrue(text.contains(#"{"type":"Feature","id":\#(id.rawValue),"geometry":{"type":"Point","coordinates":["#), text)
    }

    func testAnEmptyAnswerIsAnEmptyCollection() throws {
        let index = try ClusterIndex(points: [])
        XCTAssertEqual(try index.featureCollection([], ids: [], names: []), #"{"type":"FeatureCollection","features":[]}"#)
    }

    /// supercluster's abbreviation: 999, "1k", "3.2k", "9.9k", "10k", "12k", "1500k".
    func testAbbreviatedCountsFollowSupercluster() {
        XCTAssertEqual(
            [999, 1000, 3249, 9949, 9950, 10_000, 12_499, 1_500_000].map(ClusterIndex.abbreviated),
            ["999", #""1k""#, #""3.2k""#, #""9.9k""#, #""10k""#, #""10k""#, #""12k""#, #""1500k""#])
    }

    func testAbbreviatedCountsAreWrittenOnlyWhenAsked() throws {
        let points = [Coordinate(latitude: -18.14, longitude: 178.44), Coordinate(latitude: -18.2, longitude: 178.5)]
        let index = try ClusterIndex(points: points)
        let features = try index.clusters(in: .world, zoom: 2)
        XCTAssertFalse(try index.featureCollection(features, ids: ["a", "b"], names: [nil, nil]).contains("abbreviated"))
        XCTAssertTrue(
            try index.featureCollection(features, ids: ["a", "b"], names: [nil, nil], abbreviatedCounts: true)
                .contains(#""point_count_abbreviated":2,"#))
    }
}

import Foundation
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// Cluster answers stay bounded however large the dataset: `members` only on small clusters,
/// leaves paged, and no vector tile over 500,000 bytes; and a cluster Feature carries
/// supercluster's top-level `id`.
final class ClusterAnswerBoundsTests: XCTestCase {
    /// `count` points scattered over 0.001° (about 100 m) by the Seine in Paris, inside tile
    /// 17/66,391/45,095, with ids of 24 characters and names, in a fixed pseudo-random order.
    private func denseSpot(_ count: Int) throws -> (ClusterIndex, ids: [String], names: [String?]) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let points = (0..<count).map { _ in Coordinate(latitude: 48.8505 + next() / 1000, longitude: 2.349 + next() / 1000) }
        let ids = (0..<count).map { "sensor-\(String(repeating: "0", count: 17 - String($0).count))\($0)" }
        let names: [String?] = (0..<count).map { "Sensor number \($0) on the Seine" }
        return (try ClusterIndex(points: points), ids, names)
    }

    private func features(_ text: String) throws -> [[String: Any]] {
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try XCTUnwrap(root["features"] as? [[String: Any]])
    }

    func testAClusterFeatureHasTopLevelIDEqualToItsClusterID() throws {
        let points = [
            Coordinate(latitude: -18.14, longitude: 178.44), Coordinate(latitude: -18.2, longitude: 178.5),
            Coordinate(latitude: -13.83, longitude: -171.76),
        ]
        let index = try ClusterIndex(points: points)
        let list = try features(
            index.featureCollection(index.clusters(in: .world, zoom: 2), ids: ["a", "b", "c"], names: [nil, nil, nil]))
        let cluster = try XCTUnwrap(list.first { ($0["properties"] as? [String: Any])?["cluster"] as? Bool == true })
        let clusterID = try XCTUnwrap((cluster["properties"] as? [String: Any])?["cluster_id"] as? UInt64)
        XCTAssertEqual(cluster["id"] as? UInt64, clusterID)
        let point = try XCTUnwrap(list.first { ($0["properties"] as? [String: Any])?["cluster"] == nil })
        XCTAssertNil(point["id"], "a lone point keeps its id among its properties")
    }

    /// 20,000 points: at zoom 0 one cluster, which used to list all 20,000 ids (580 KB).
    func testALargeClusterHasNoMembersAndItsAnswerStaysSmall() throws {
        let (index, ids, names) = try denseSpot(20_000)
        let text = try index.featureCollection(index.clusters(in: .world, zoom: 0), ids: ids, names: names)
        XCTAssertLessThan(text.utf8.count, 1000, text)
        let list = try features(text)
        XCTAssertEqual(list.count, 1)
        let properties = try XCTUnwrap(list.first?["properties"] as? [String: Any])
        XCTAssertEqual(properties["point_count"] as? Int, 20_000)
        XCTAssertNil(properties["members"])
    }

    func testAClusterOfAtMostTheLimitListsEveryMember() throws {
        let (index, ids, names) = try denseSpot(ClusterIndex.listedMembersLimit)
        let list = try features(index.featureCollection(index.clusters(in: .world, zoom: 0), ids: ids, names: names))
        let properties = try XCTUnwrap(list.first?["properties"] as? [String: Any])
        let members = try XCTUnwrap(properties["members"] as? [String])
        XCTAssertEqual(members.count, ClusterIndex.listedMembersLimit)
        XCTAssertEqual(Set(members), Set(ids))
    }

    /// Pages of 999 through 20,000 leaves: every point once, in the order of one long call.
    func testLeavesPageThroughAClusterWithoutGapOrOverlap() throws {
        let (index, _, _) = try denseSpot(20_000)
        let id = try XCTUnwrap(index.clusters(in: .world, zoom: 0).first?.clusterID)
        let all = try index.leaves(of: id, limit: .max)
        XCTAssertEqual(all.count, 20_000)
        var paged: [Int] = []
        var offset = 0
        while true {
            let page = try index.leaves(of: id, limit: 999, offset: offset)
            paged += page
            offset += page.count
            if page.count < 999 { break }
        }
        XCTAssertEqual(paged, all)
        XCTAssertEqual(Set(paged).count, 20_000)
        XCTAssertEqual(try index.leaves(of: id, limit: 10, offset: 19_995).count, 5)
    }

    /// Past zoom 16 the 20,000 points stand alone: with a byte limit the collection keeps the
    /// first that fit, counts the rest in `omitted`, and stays valid JSON.
    func testAFeatureCollectionWithALimitCountsWhatItLeavesOut() throws {
        let (index, ids, names) = try denseSpot(20_000)
        let features = try index.clusters(in: .world, zoom: 17)
        XCTAssertEqual(features.count, 20_000)
        let text = try index.featureCollection(features, ids: ids, names: names, maximumBytes: 100_000)
        XCTAssertLessThanOrEqual(text.utf8.count, 100_000)
        XCTAssertGreaterThan(text.utf8.count, 99_000)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let kept = try XCTUnwrap(root["features"] as? [[String: Any]]).count
        XCTAssertEqual(kept + (root["omitted"] as? Int ?? 0), 20_000)
        XCTAssertGreaterThan(kept, 500)
        let whole = try index.featureCollection(features, ids: ids, names: names)
        XCTAssertFalse(whole.contains("omitted"))
        XCTAssertGreaterThan(whole.utf8.count, 2_000_000)
    }

    /// 40,000 points in one spot: the world tile is one cluster without members; past zoom 16,
    /// where they stand alone, the tile over the spot stops at the limit instead of 2 MB.
    func testNoVectorTilePassesTheLimitOverADenseSpot() throws {
        let (index, ids, names) = try denseSpot(40_000)
        let world = try index.vectorTile(z: 0, x: 0, y: 0, ids: ids, names: names)
        XCTAssertLessThan(world.count, 200)
        XCTAssertFalse(String(decoding: world, as: UTF8.self).contains("members"))
        let z = 17, x = 66_391, y = 45_095
        let bounds = ClusterIndex.tileBounds(z: z, x: x, y: y)
        XCTAssertTrue(bounds.west <= 2.349 && bounds.east >= 2.35 && bounds.south <= 48.8505 && bounds.north >= 48.8515, "\(bounds)")
        let dense = try index.vectorTile(z: z, x: x, y: y, ids: ids, names: names)
        XCTAssertLessThanOrEqual(dense.count, ClusterIndex.maximumTileBytes)
        XCTAssertGreaterThan(dense.count, ClusterIndex.maximumTileBytes - 1000, "the tile is filled to the limit")
        XCTAssertTrue(String(decoding: dense, as: UTF8.self).contains("sensor-"), "the first points keep their ids")
    }
}

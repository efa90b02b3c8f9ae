import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

final class ClusterIDTests: XCTestCase {
    func testIdsKeepOrdinalsBeyondTwoToTheTwentySixth() {
        for ordinal in [0, 1 << 26, (1 << 26) + 5, 1 << 40, (1 << 56) - 1] {
            for zoom in [0, 16, 31, 32, 200, 254] {
                let id = ClusterID(ordinal: ordinal, zoom: zoom)
                XCTAssertEqual(id.ordinal, ordinal)
                XCTAssertEqual(id.zoom, zoom)
                XCTAssertEqual(ClusterID(rawValue: id.rawValue), id)
            }
        }
        XCTAssertEqual(ClusterID(ordinal: 3, zoom: 5).rawValue, 3 * 256 + 5)
        // supercluster's (i << 5) + (zoom + 1) makes zoom 31 of item i equal zoom -1 of item i + 1.
        XCTAssertNotEqual(ClusterID(ordinal: 1, zoom: 31), ClusterID(ordinal: 2, zoom: 0))
    }

    func testClustersFormAboveZoomThirtyOne() throws {
        // 1e-9° apart: 2.8e-12 of the world, within r = 0.078125 / 2^z up to zoom 34.
        let points = [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1e-9)]
        let index = try ClusterIndex(points: points, options: ClusterOptions(maxZoom: 40))
        let id = try XCTUnwrap(index.clusters(in: .world, zoom: 34).first?.clusterID)
        XCTAssertEqual(id.zoom, 34)
        XCTAssertEqual(try index.expansionZoom(of: id), 35)
        XCTAssertEqual(try index.clusters(in: .world, zoom: 35).count, 2)
        XCTAssertEqual(try index.children(of: id).count, 2)
    }
}

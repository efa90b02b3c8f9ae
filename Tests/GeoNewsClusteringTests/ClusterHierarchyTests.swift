import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// Hand-checkable fixtures. With the defaults (radius 40, extent 512) the clustering radius at
/// zoom z is 0.078125 / 2^z of the world's width; one degree of longitude is 1/360 of it, so
/// points 1° apart on the equator join at zoom 4 (r = 0.00488 ≥ 0.00278) and part at zoom 5
/// (r = 0.00244).
final class ClusterHierarchyTests: XCTestCase {
    let pairs = [
        Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
        Coordinate(latitude: 0, longitude: 10), Coordinate(latitude: 0, longitude: 11),
    ]

    func testPointsOneDegreeApartJoinAtZoomFourAndPartAtFive() throws {
        let index = try ClusterIndex(points: Array(pairs[0...1]))
        let z4 = try index.clusters(in: .world, zoom: 4)
        XCTAssertEqual(z4.count, 1)
        XCTAssertEqual(z4[0].pointCount, 2)
        XCTAssertEqual(z4[0].coordinate.longitude, 0.5, accuracy: 1e-12)
        XCTAssertEqual(z4[0].coordinate.latitude, 0, accuracy: 1e-12)
        XCTAssertEqual(try index.expansionZoom(of: XCTUnwrap(z4[0].clusterID)), 5)
        let z5 = try index.clusters(in: .world, zoom: 5)
        XCTAssertEqual(Set(z5.map(\.kind)), [.point(index: 0), .point(index: 1)])
    }

    func testClustersNestAcrossZooms() throws {
        // The pairs' centres (0.5° and 10.5°) are 10° = 0.0278 apart: they join at zoom 1
        // (r = 0.039) but not at zoom 2 (r = 0.0195).
        let index = try ClusterIndex(points: pairs)
        let z2 = try index.clusters(in: .world, zoom: 2)
        XCTAssertEqual(z2.map(\.pointCount), [2, 2])
        let z1 = try index.clusters(in: .world, zoom: 1)
        XCTAssertEqual(z1.count, 1)
        let top = try XCTUnwrap(z1[0].clusterID)
        XCTAssertEqual(top.zoom, 1)
        XCTAssertEqual(z1[0].pointCount, 4)
        XCTAssertEqual(z1[0].coordinate.longitude, 5.5, accuracy: 1e-12)
        let children = try index.children(of: top)
        XCTAssertEqual(Set(children.compactMap(\.clusterID)), Set(z2.compactMap(\.clusterID)))
        XCTAssertEqual(try index.expansionZoom(of: top), 2)
        // Unchanged at zoom 0: the same cluster, not a new one.
        XCTAssertEqual(try index.clusters(in: .world, zoom: 0).map(\.kind), [.cluster(top)])
        XCTAssertEqual(Set(try index.leaves(of: top, limit: .max)), [0, 1, 2, 3])
        XCTAssertEqual(index.clusterCount, 3)
    }

    func testLeavesPageThroughEveryPointOnce() throws {
        let points = (0..<10).map { Coordinate(latitude: 0.001 * Double($0), longitude: 0) }
        let index = try ClusterIndex(points: points)
        let top = try XCTUnwrap(index.clusters(in: .world, zoom: 0).first?.clusterID)
        var seen: [Int] = []
        for offset in stride(from: 0, to: 12, by: 3) {
            let page = try index.leaves(of: top, limit: 3, offset: offset)
            XCTAssertEqual(page.count, offset < 9 ? 3 : 1, "page at \(offset)")
            seen += page
        }
        XCTAssertEqual(seen.sorted(), Array(0..<10))
        XCTAssertEqual(try index.leaves(of: top, limit: 3, offset: 10), [])
        XCTAssertEqual(try index.leaves(of: top), Array(seen.prefix(10)))
        XCTAssertThrowsError(try index.leaves(of: top, limit: -1))
    }

    func testIdenticalPointsFormOneClusterAtEveryZoom() throws {
        let p = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let index = try ClusterIndex(points: [p, p, p])
        for zoom in 0...16 {
            let items = try index.clusters(in: .world, zoom: Double(zoom))
            XCTAssertEqual(items.map(\.pointCount), [3], "zoom \(zoom)")
            XCTAssertEqual(items[0].coordinate.latitude, p.latitude, accuracy: 1e-9)
            XCTAssertEqual(items[0].coordinate.longitude, p.longitude, accuracy: 1e-9)
        }
        XCTAssertEqual(try index.clusters(in: .world, zoom: 17).count, 3)
        let id = try XCTUnwrap(index.clusters(in: .world, zoom: 16).first?.clusterID)
        XCTAssertEqual(try index.expansionZoom(of: id), 17)
    }

    func testEmptyIndexAnswersWithNothing() throws {
        let index = try ClusterIndex(points: [])
        XCTAssertEqual(index.clusterCount, 0)
        for zoom in [0.0, 8.5, 17] { XCTAssertEqual(try index.clusters(in: .world, zoom: zoom), []) }
        XCTAssertEqual(try index.tile(z: 0, x: 0, y: 0), [])
        XCTAssertThrowsError(try index.children(of: ClusterID(ordinal: 0, zoom: 0))) { error in
            XCTAssertEqual(error as? ClusterIndexError, .unknownCluster(ClusterID(ordinal: 0, zoom: 0)))
        }
    }

    func testSinglePointIsItselfAtEveryZoom() throws {
        let p = Coordinate(latitude: -33.8688, longitude: 151.2093)
        let index = try ClusterIndex(points: [p])
        for zoom in 0...17 {
            let items = try index.clusters(in: .world, zoom: Double(zoom))
            XCTAssertEqual(items, [ClusterFeature(kind: .point(index: 0), coordinate: p, pointCount: 1)])
        }
    }

    func testUnknownClusterIdIsATypedError() throws {
        let index = try ClusterIndex(points: pairs)
        let real = try XCTUnwrap(index.clusters(in: .world, zoom: 1).first?.clusterID)
        let wrongZoom = ClusterID(ordinal: real.ordinal, zoom: real.zoom + 1)
        let beyond = ClusterID(ordinal: 1 << 30, zoom: 3)
        for id in [wrongZoom, beyond] {
            XCTAssertThrowsError(try index.children(of: id)) { XCTAssertEqual($0 as? ClusterIndexError, .unknownCluster(id)) }
            XCTAssertThrowsError(try index.leaves(of: id)) { XCTAssertEqual($0 as? ClusterIndexError, .unknownCluster(id)) }
            XCTAssertThrowsError(try index.expansionZoom(of: id)) { XCTAssertEqual($0 as? ClusterIndexError, .unknownCluster(id)) }
        }
        XCTAssertTrue("\(ClusterIndexError.unknownCluster(beyond))".contains("\(beyond.rawValue)"))
    }

    func testAggregateFoldsMemberIdsAndWeights() throws {
        let codes = ["FR", "BE", "DE", "NL"]
        let weights = [1.5, 2.0, 4.0, 0.25]
        let index = try ClusterIndex(points: pairs)
        let top = try XCTUnwrap(index.clusters(in: .world, zoom: 0).first?.clusterID)
        XCTAssertEqual(index.aggregate({ [codes[$0]] as Set }, { $0.formUnion($1) })[top], ["FR", "BE", "DE", "NL"])
        XCTAssertEqual(index.aggregate({ weights[$0] }, +=)[top], 7.75)
        XCTAssertNil(index.aggregate({ $0 }, +=)[ClusterID(ordinal: 99, zoom: 0)])
    }

    func testMinPointsThreeLeavesPairsAlone() throws {
        let options = ClusterOptions(minPoints: 3)
        let two = try ClusterIndex(points: Array(pairs[0...1]), options: options)
        XCTAssertEqual(try two.clusters(in: .world, zoom: 0).count, 2)
        let three = try ClusterIndex(points: Array(pairs[0...1]) + [Coordinate(latitude: 0.5, longitude: 0.5)], options: options)
        XCTAssertEqual(try three.clusters(in: .world, zoom: 0).map(\.pointCount), [3])
    }

    func testBadOptionsAndPointsAreNamed() {
        XCTAssertThrowsError(try ClusterIndex(points: [], options: ClusterOptions(minZoom: 5, maxZoom: 3))) {
            XCTAssertEqual($0 as? ClusterIndexError, .invalidOption(name: "minZoom", value: "5", expected: "0…maxZoom (3)"))
        }
        XCTAssertThrowsError(try ClusterIndex(points: [], options: ClusterOptions(radius: 0)))
        XCTAssertThrowsError(try ClusterIndex(points: [], options: ClusterOptions(maxZoom: 255)))
        XCTAssertThrowsError(try ClusterIndex(points: [pairs[0], Coordinate(latitude: .nan, longitude: 0)])) {
            guard case .invalidPoint(index: 1, _)? = $0 as? ClusterIndexError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try ClusterIndex(points: [Coordinate(latitude: 0, longitude: 181)]))
    }
}

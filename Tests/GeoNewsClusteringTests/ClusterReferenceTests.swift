import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// The index against a brute-force transcription of supercluster's rule, on random points
/// dense enough to cluster at every zoom.
final class ClusterReferenceTests: XCTestCase {
    func points(count: Int, seed: UInt64, clumped: Bool = true) -> [Coordinate] {
        ReferenceClustering.samplePoints(count: count, seed: seed, clumped: clumped)
    }

    func assertMatchesReference(
        _ options: ClusterOptions, count: Int = 1000, seed: UInt64 = 7, clumped: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try assertMatchesReference(options, points: points(count: count, seed: seed, clumped: clumped), file: file, line: line)
    }

    func assertMatchesReference(
        _ options: ClusterOptions, points input: [Coordinate], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let count = input.count
        let index = try ClusterIndex(points: input, options: options)
        try index.checkInvariants()
        let reference = ReferenceClustering.levels(input, options: options)
        for zoom in options.minZoom...options.maxZoom {
            let expected = reference[zoom]!.map { (count: $0.count, x: $0.x, y: $0.y) }
            var actual: [(count: Int, x: Double, y: Double)] = []
            try index.forEachFeature(in: .world, zoom: Double(zoom)) { f in
                actual.append(
                    (f.pointCount, WebMercator.x(longitude: f.coordinate.longitude), WebMercator.y(latitude: f.coordinate.latitude)))
            }
            XCTAssertEqual(actual.count, expected.count, "items at zoom \(zoom)", file: file, line: line)
            let order: ((count: Int, x: Double, y: Double), (count: Int, x: Double, y: Double)) -> Bool = {
                ($0.x, $0.y, $0.count) < ($1.x, $1.y, $1.count)
            }
            for (a, e) in zip(actual.sorted(by: order), expected.sorted(by: order)) {
                XCTAssertEqual(a.count, e.count, "count at zoom \(zoom)", file: file, line: line)
                XCTAssertEqual(a.x, e.x, accuracy: 1e-12, "x at zoom \(zoom)", file: file, line: line)
                XCTAssertEqual(a.y, e.y, accuracy: 1e-12, "y at zoom \(zoom)", file: file, line: line)
            }
            XCTAssertEqual(actual.reduce(0) { $0 + $1.count }, count, file: file, line: line)
        }
    }

    func testDefaultOptionsMatchSupercluster() throws {
        try assertMatchesReference(ClusterOptions())
    }

    func testWrappingMatchesTheWrappedRule() throws {
        try assertMatchesReference(ClusterOptions(wrapsAntimeridian: true))
    }

    func testLargerRadiusAndMinPointsMatch() throws {
        try assertMatchesReference(ClusterOptions(minZoom: 2, maxZoom: 12, minPoints: 4, radius: 60, extent: 256), seed: 11)
    }

    /// Scattered points share one coarse grid over the top zooms and are marked by nearest
    /// distance there; clumped ones above take the per-zoom grids.
    func testScatteredPointsMatchSupercluster() throws {
        let input = points(count: 1000, seed: 13, clumped: false)
        XCTAssertNotNil(ClusterBuilder(points: input, options: ClusterOptions()).nearest.grid)
        XCTAssertNil(ClusterBuilder(points: points(count: 1000, seed: 13), options: ClusterOptions()).nearest.grid)
        try assertMatchesReference(ClusterOptions(), count: 1000, seed: 13, clumped: false)
        try assertMatchesReference(ClusterOptions(wrapsAntimeridian: true), count: 1000, seed: 17, clumped: false)
        try assertMatchesReference(ClusterOptions(minPoints: 3, radius: 80), count: 1000, seed: 19, clumped: false)
    }

    /// A trace heading north-west: each fix is near the next, and seed order runs against
    /// grid order, so settling in grid order leaves long chains to finish in seed order.
    func testSeedChainsAgainstGridOrderMatchSupercluster() throws {
        var input = points(count: 400, seed: 23, clumped: false)
        for i in 0..<600 {
            let wobble = Double(i % 7) * 0.0013
            input.append(Coordinate(latitude: 10 + Double(i) * 0.011 + wobble, longitude: 20 - Double(i) * 0.009))
        }
        let reference = ReferenceClustering.levels(input, options: ClusterOptions())
        let index = try ClusterIndex(points: input)
        for zoom in 0...16 {
            XCTAssertEqual(try index.itemCount(atZoom: Double(zoom)), reference[zoom]!.count, "items at zoom \(zoom)")
        }
        try assertMatchesReference(ClusterOptions(), points: input)
        // The trace's head now sits on the antimeridian.
        try assertMatchesReference(
            ClusterOptions(wrapsAntimeridian: true),
            points: input.map {
                let east = $0.longitude + 159.995
                return Coordinate(latitude: $0.latitude, longitude: east > 180 ? east - 360 : east)
            })
    }

    /// Hundreds of identical points make a level's pair lists quadratic: that level is
    /// visited in seed order instead, with the same outcome.
    func testCrowdedLevelsFallBackToVisitsWithTheSameOutcome() throws {
        var input = points(count: 500, seed: 29, clumped: false)
        input += Array(repeating: Coordinate(latitude: -12.5, longitude: 45.25), count: 500)
        var builder = ClusterBuilder(points: input, options: ClusterOptions())
        XCTAssertNil(builder.nearest.grid)
        XCTAssertNil(builder.listNeighbours(grid: builder.levels.grids[0], radius: ClusterOptions().mercatorRadius(atZoom: 16)))
        builder.build()
        let madeAtZoom16 = builder.nodes.clusterZooms.indices.filter { builder.nodes.clusterZooms[$0] == 16 }
        XCTAssertEqual(
            madeAtZoom16.filter { builder.nodes.pointCounts[input.count + $0] > 2 }.map { builder.nodes.pointCounts[input.count + $0] },
            [500], "the crowd is one cluster at zoom 16, beside close pairs")
        try assertMatchesReference(ClusterOptions(), points: input)

        let scattered = ClusterBuilder(points: points(count: 1000, seed: 31, clumped: false), options: ClusterOptions(maxZoom: 3))
        let lists = try XCTUnwrap(
            scattered.listNeighbours(grid: scattered.levels.grids[0], radius: ClusterOptions().mercatorRadius(atZoom: 3)))
        XCTAssertEqual(lists.start.count, 1001)
        XCTAssertTrue((0..<1000).contains { lists.hasNeighbours($0) })
    }

    func testEveryPointIsALeafOfExactlyOneTopLevelItem() throws {
        let input = points(count: 3000, seed: 3)
        let index = try ClusterIndex(points: input)
        var seen: [Int] = []
        for f in try index.clusters(in: .world, zoom: 0) {
            switch f.kind {
            case .point(let i): seen.append(i)
            case .cluster(let id): seen += try index.leaves(of: id, limit: .max)
            }
        }
        XCTAssertEqual(seen.sorted(), Array(0..<3000))
    }

    func testBoxQueriesReturnExactlyTheItemsInside() throws {
        let index = try ClusterIndex(points: points(count: 3000, seed: 5))
        let boxes = [
            ClusterIndex.Bounds(west: -10, south: 40, east: 20, north: 60),
            ClusterIndex.Bounds(west: 170, south: -20, east: -170, north: 20),
            ClusterIndex.Bounds(west: 139, south: 35, east: 140.5, north: 36),
        ]
        for zoom in [0.0, 3, 7.5, 12, 17] {
            let all = try index.clusters(in: .world, zoom: zoom)
            for b in boxes {
                let inside = all.filter { f in
                    let lon = f.coordinate.longitude, lat = f.coordinate.latitude
                    let inLon =
                        b.west <= b.east ? (lon >= b.west - 1e-9 && lon <= b.east + 1e-9) : (lon >= b.west - 1e-9 || lon <= b.east + 1e-9)
                    return inLon && lat >= b.south - 1e-9 && lat <= b.north + 1e-9
                }
                XCTAssertEqual(Set(try index.clusters(in: b, zoom: zoom).map(\.kind)), Set(inside.map(\.kind)), "zoom \(zoom) box \(b)")
            }
        }
    }
}

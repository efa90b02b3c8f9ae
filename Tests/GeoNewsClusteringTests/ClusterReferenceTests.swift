import GeoNewsGeodesy
import XCTest
@testable import GeoNewsClustering

/// The index against a brute-force transcription of supercluster's rule, on random points
/// dense enough to cluster at every zoom.
final class ClusterReferenceTests: XCTestCase {
    /// Deterministic points: a uniform scatter plus tight blobs (cities), some on the seam.
    func points(count: Int, seed: UInt64, clumped: Bool = true) -> [Coordinate] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var result: [Coordinate] = []
        let blobs = [(48.85, 2.35), (0.0, 179.99), (35.68, 139.69), (-33.87, 151.21)]
        for i in 0..<count {
            if !clumped && i % 40 == 1 {
                // Close pairs, so that the top zooms have something to cluster.
                let previous = result[i - 1]
                result.append(Coordinate(latitude: previous.latitude + (next() - 0.5) * 1e-4,
                                         longitude: max(-180, min(180, previous.longitude + (next() - 0.5) * 1e-4))))
            } else if clumped && i % 3 == 0 {
                let (lat, lon) = blobs[i % blobs.count]
                let spread = i % 2 == 0 ? 0.01 : 2
                result.append(Coordinate(latitude: lat + (next() - 0.5) * spread,
                                         longitude: max(-180, min(180, lon + (next() - 0.5) * spread))))
            } else {
                result.append(Coordinate(latitude: next() * 170 - 85, longitude: next() * 360 - 180))
            }
        }
        return result
    }

    func assertMatchesReference(
        _ options: ClusterOptions, count: Int = 1000, seed: UInt64 = 7, clumped: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let input = points(count: count, seed: seed, clumped: clumped)
        let index = try ClusterIndex(points: input, options: options)
        let reference = ReferenceClustering.levels(input, options: options)
        for zoom in options.minZoom...options.maxZoom {
            let expected = reference[zoom]!.map { (count: $0.count, x: $0.x, y: $0.y) }
            var actual: [(count: Int, x: Double, y: Double)] = []
            try index.forEachFeature(in: .world, zoom: Double(zoom)) { f in
                actual.append((f.pointCount, WebMercator.x(longitude: f.coordinate.longitude), WebMercator.y(latitude: f.coordinate.latitude)))
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
        XCTAssertNotNil(ClusterBuilder(points: input, options: ClusterOptions()).sparseGrid)
        XCTAssertNil(ClusterBuilder(points: points(count: 1000, seed: 13), options: ClusterOptions()).sparseGrid)
        try assertMatchesReference(ClusterOptions(), count: 1000, seed: 13, clumped: false)
        try assertMatchesReference(ClusterOptions(wrapsAntimeridian: true), count: 1000, seed: 17, clumped: false)
        try assertMatchesReference(ClusterOptions(minPoints: 3, radius: 80), count: 1000, seed: 19, clumped: false)
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
                    let inLon = b.west <= b.east ? (lon >= b.west - 1e-9 && lon <= b.east + 1e-9) : (lon >= b.west - 1e-9 || lon <= b.east + 1e-9)
                    return inLon && lat >= b.south - 1e-9 && lat <= b.north + 1e-9
                }
                XCTAssertEqual(Set(try index.clusters(in: b, zoom: zoom).map(\.kind)), Set(inside.map(\.kind)), "zoom \(zoom) box \(b)")
            }
        }
    }
}

import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// ``ClusterIndex/checkInvariants()`` on random and awkward inputs, and on damaged indexes to
/// show that each of its checks can fail and names the rule it guards.
final class ClusterInvariantTests: XCTestCase {
    let optionSets = [
        ClusterOptions(),
        ClusterOptions(wrapsAntimeridian: true),
        ClusterOptions(minPoints: 3, radius: 80),
        ClusterOptions(minZoom: 2, maxZoom: 12, minPoints: 4, radius: 60, extent: 256),
    ]

    func assertInvariantsHold(
        _ points: [Coordinate], _ options: ClusterOptions, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ClusterIndex {
        let index = try ClusterIndex(points: points, options: options)
        do {
            try index.checkInvariants()
        } catch {
            XCTFail("\(what), \(options): \(error)", file: file, line: line)
        }
        return index
    }

    func testRandomInputsKeepEveryInvariant() throws {
        for seed: UInt64 in [1, 2, 3] {
            for count in [2, 10, 300, 3000] {
                for clumped in [true, false] {
                    let input = ReferenceClustering.samplePoints(count: count, seed: seed, clumped: clumped)
                    for options in optionSets {
                        let index = try assertInvariantsHold(input, options, "seed \(seed), \(count) points, clumped \(clumped)")
                        if count == 3000 { XCTAssertGreaterThan(index.clusterCount, 100) }
                    }
                }
            }
        }
    }

    func testEmptyAndSinglePointKeepEveryInvariant() throws {
        for options in optionSets {
            let empty = try assertInvariantsHold([], options, "empty")
            XCTAssertEqual(empty.clusterCount, 0)
            let one = try assertInvariantsHold([Coordinate(latitude: 12, longitude: -7)], options, "one point")
            XCTAssertEqual(one.clusterCount, 0)
            XCTAssertEqual(try one.itemCount(atZoom: Double(options.minZoom)), 1)
        }
    }

    func testIdenticalPointsMakeOneClusterAtEveryZoom() throws {
        let input = Array(repeating: Coordinate(latitude: -33.87, longitude: 151.21), count: 700)
        for options in optionSets {
            let index = try assertInvariantsHold(input, options, "identical points")
            for zoom in options.minZoom...options.maxZoom {
                XCTAssertEqual(try index.clusters(in: .world, zoom: Double(zoom)).map(\.pointCount), [700])
            }
        }
    }

    /// The map's corners: both poles (clamped onto the edges), the last Mercator latitude and
    /// both sides of the antimeridian, several times each.
    func testPolesAndAntimeridianKeepEveryInvariant() throws {
        let corners = [
            (90.0, 180.0), (-90, -180), (85.05112878, 180), (-85.05112878, -180), (0, 180), (0, -180),
            (90, 0), (-90, 0), (85.05112878, -180), (-85.05112878, 180), (89.9999, 179.9999), (-89.9999, -179.9999),
        ]
        let input = (corners + corners + corners).map { Coordinate(latitude: $0.0, longitude: $0.1) }
        for options in optionSets {
            let index = try assertInvariantsHold(input, options, "corners")
            if options.minPoints <= 3 {
                XCTAssertLessThan(
                    try index.itemCount(atZoom: Double(options.maxZoom)), input.count,
                    "repeated corners cluster at the top zoom")
            }
        }
        // (0, 180) and (0, −180) are one place only when the map wraps.
        let seam = [Coordinate(latitude: 0, longitude: 180), Coordinate(latitude: 0, longitude: -180)]
        XCTAssertEqual(try assertInvariantsHold(seam, ClusterOptions(), "seam").clusterCount, 0)
        XCTAssertEqual(try assertInvariantsHold(seam, ClusterOptions(wrapsAntimeridian: true), "seam").clusterCount, 1)
    }

    /// Eight points on the equator exactly one zoom-5 radius (5/2048 of the world, 0.87890625°)
    /// apart: a distance equal to the radius joins, so they pair at zoom 5, the pairs (two
    /// radii apart, one zoom-4 radius) pair at zoom 4, and all join at zoom 3.
    func testPointsExactlyOneRadiusApartJoinLevelByLevel() throws {
        let step = 0.87890625
        XCTAssertEqual(WebMercator.x(longitude: step) - 0.5, ClusterOptions().mercatorRadius(atZoom: 5))
        let input = (0..<8).map { Coordinate(latitude: 0, longitude: Double($0) * step) }
        let index = try assertInvariantsHold(input, ClusterOptions(), "a line one radius apart")
        let counts = try (3...6).map { try index.itemCount(atZoom: Double($0)) }
        XCTAssertEqual(counts, [1, 2, 4, 8])
        _ = try assertInvariantsHold(input, ClusterOptions(wrapsAntimeridian: true), "a line one radius apart")
        _ = try assertInvariantsHold(
            input.map { Coordinate(latitude: 0, longitude: $0.longitude - 180) },
            ClusterOptions(wrapsAntimeridian: true), "a line from the antimeridian")
    }
}

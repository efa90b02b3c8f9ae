import GeoNewsBenchmarking
import XCTest

@testable import GeoNewsBoundaries

/// ``ExactPolygonTest/EdgeRuns`` only skips edges that cannot cross the ray: the answer with
/// the runs is the plain test's at every point, on the regions the area index is built from,
/// at the places where a skip could go wrong (on a vertex's latitude, a hair beside a vertex,
/// on the vertex itself) and anywhere in the region's box.
final class EdgeRunsTests: XCTestCase {
    func testTheRunsGiveThePlainAnswerAtEveryPoint() throws {
        let path = TestData.directory.buildFolder + "/" + CountryAreaFile.fileName
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is not built: run Scripts/ensure-areas")
        }
        let areas = try CountryAreaFile(path: path)
        // The largest regions (an ocean's millions of vertices) and a spread of the others.
        let sizes = try (0..<areas.count).map { try areas.wkb($0).count }
        let bySize = (0..<areas.count).sorted { sizes[$0] > sizes[$1] }
        let chosen = Array(bySize.prefix(3)) + stride(from: 3, to: bySize.count, by: bySize.count / 12).map { bySize[$0] }
        var rng = SplitMix64(seed: 31)
        var compared = 0, inside = 0
        for region in chosen {
            let wkb = try areas.wkb(region)
            let runs = ExactPolygonTest.EdgeRuns(wkb: wkb)
            var vertices: [(Double, Double)] = [], edges = 0
            ExactPolygonTest.forEachRing(wkb) { ring, count in
                edges += max(count - 1, 0)
                for i in 0..<count {
                    vertices.append(
                        (
                            ring.loadUnaligned(fromByteOffset: i * 16, as: Double.self),
                            ring.loadUnaligned(fromByteOffset: i * 16 + 8, as: Double.self)
                        ))
                }
            }
            // Every edge is in exactly one run.
            var runEdges = 0, runCount = 0
            ExactPolygonTest.forEachRing(wkb) { _, count in
                ExactPolygonTest.EdgeRuns.forEachRun(ofRingOf: count) { first, last in
                    XCTAssertLessThanOrEqual(last - first, ExactPolygonTest.EdgeRuns.length)
                    runEdges += last - first
                    runCount += 1
                }
            }
            XCTAssertEqual(runEdges, edges, "region \(region)")
            XCTAssertEqual([runs.south.count, runs.north.count, runs.east.count], [runCount, runCount, runCount], "region \(region)")
            let west = vertices.map(\.0).min()!, east = vertices.map(\.0).max()!
            let south = vertices.map(\.1).min()!, north = vertices.map(\.1).max()!
            var points: [(Double, Double)] = []
            for _ in 0..<60 {
                let (x, y) = vertices[Int.random(in: 0..<vertices.count, using: &rng)]
                points += [
                    (x, y), (x + 1e-9, y), (x - 1e-9, y), (x, y + 1e-9), (x, y - 1e-9),
                    (rng.uniform(west, east), y), (x, rng.uniform(south, north)),
                ]
            }
            for _ in 0..<60 { points.append((rng.uniform(west - 1, east + 1), rng.uniform(south - 1, north + 1))) }
            for (x, y) in points {
                let plain = ExactPolygonTest.contains(wkb: wkb, x: x, y: y)
                XCTAssertEqual(ExactPolygonTest.contains(wkb: wkb, x: x, y: y, runs: runs), plain, "region \(region) at (\(x), \(y))")
                compared += 1
                if plain { inside += 1 }
            }
        }
        XCTAssertEqual(compared, chosen.count * 480)
        XCTAssertGreaterThan(inside, compared / 10, "too few of the points fell inside to test the inside")
    }
}

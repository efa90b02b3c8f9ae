import GeoNewsBenchmarking
import GeoNewsBoundaryBuilding
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The area index against GEOS over the regions it was built from (``ExactAreaLocator`` over
/// `.build-data/country-areas.bin`): random positions, and positions a hair from the regions'
/// own vertices, where the index's compact vertices are most likely to differ.
final class AreaIndexExactnessTests: XCTestCase {
    private static let oracle = Once<ExactAreaLocator>()

    private func fixtures() throws -> (CountryResolver, ExactAreaLocator, CountryAreaFile) {
        let resolver = try TestData.resolver()
        let path = TestData.directory.buildFolder + "/" + CountryAreaFile.fileName
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is not built: run Scripts/ensure-areas")
        }
        let areas = try CountryAreaFile(path: path)
        let oracle = try Self.oracle.value { try ExactAreaLocator(areas: areas) }
        return (resolver, oracle, areas)
    }

    /// Compares the index with GEOS at `p`; false when GEOS puts `p` on an edge (no single answer).
    @discardableResult
    private func check(
        _ p: Coordinate, _ resolver: CountryResolver, _ oracle: ExactAreaLocator,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Bool {
        let expected = try oracle.answers(at: p)
        guard expected.count == 1 else { return false }
        let r = resolver.areas.region(at: p)
        XCTAssertEqual(r.flatMap(resolver.areas.country(ofRegion:)), expected[0].country, "\(p)", file: file, line: line)
        XCTAssertEqual(r.map(resolver.areas.zone(ofRegion:)), expected[0].zone, "\(p)", file: file, line: line)
        return true
    }

    /// `GEONEWS_EXACTNESS_SCALE=N` multiplies the probes (random positions, and vertices per
    /// region) for a long run by hand; the suite runs with 1.
    private static let scale = max(1, Int(ProcessInfo.processInfo.environment["GEONEWS_EXACTNESS_SCALE"] ?? "") ?? 1)

    func testRandomPositionsMatchGEOS() throws {
        let (resolver, oracle, _) = try fixtures()
        var rng = SplitMix64(seed: 11)
        var checked = 0
        let count = 3000 * Self.scale
        for _ in 0..<count {
            // Uniform on the sphere.
            let lat = asin(2 * rng.uniform(0, 1) - 1) * 180 / .pi, lon = rng.uniform(0, 1) * 360 - 180
            if try check(Coordinate(latitude: lat, longitude: lon), resolver, oracle) { checked += 1 }
        }
        XCTAssertGreaterThan(checked, count - count / 300)
        print("area index vs GEOS: \(checked) random positions with one answer, compared")
    }

    func testPositionsBesideTheRegionsOwnVerticesMatchGEOS() throws {
        let (resolver, oracle, areas) = try fixtures()
        var rng = SplitMix64(seed: 12)
        var checked = 0
        for region in stride(from: 0, to: areas.count, by: Self.scale > 1 ? 1 : 3) {
            let vertices = Self.shellVertices(try areas.wkb(region))
            for k in stride(from: 0, to: vertices.count, by: max(1, vertices.count / (6 * Self.scale))) {
                // 3e-8° (3 mm) off a vertex of the 1e-7° grid: never on the grid, often within
                // the compact vertices' rounding of an edge.
                let dx = (rng.uniform(0, 1) < 0.5 ? -3e-8 : 3e-8), dy = (rng.uniform(0, 1) < 0.5 ? -3e-8 : 3e-8)
                let p = Coordinate(latitude: min(90, max(-90, vertices[k].y + dy)), longitude: vertices[k].x + dx)
                // Within the nudge of the antimeridian or a pole the index answers for a point
                // that far inside (see CountryIndex.countryIndex(at:)), GEOS for the point itself.
                let nudge = CountryIndex.edgeNudge
                guard abs(p.longitude) < 180 - nudge, abs(p.latitude) < 90 - nudge else { continue }
                if try check(p, resolver, oracle) { checked += 1 }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
        print("area index vs GEOS: \(checked) positions 3 mm from region vertices, compared")
    }

    /// The first polygon's shell of a little-endian WKB Polygon or MultiPolygon.
    static func shellVertices(_ wkb: UnsafeRawBufferPointer) -> [(x: Double, y: Double)] {
        func u32(_ o: Int) -> Int { Int(UInt32(littleEndian: wkb.loadUnaligned(fromByteOffset: o, as: UInt32.self))) }
        var o = 5
        if u32(1) == 6 { o = 9 + 5 }  // the first polygon of the collection
        let count = u32(o + 4)
        o += 8
        return (0..<count).map { i in
            (
                wkb.loadUnaligned(fromByteOffset: o + 16 * i, as: Double.self),
                wkb.loadUnaligned(fromByteOffset: o + 16 * i + 8, as: Double.self)
            )
        }
    }
}

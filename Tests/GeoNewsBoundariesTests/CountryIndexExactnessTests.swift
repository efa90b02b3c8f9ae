import GeoNewsBenchmarking
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries
@testable import GeoNewsBoundaryBuilding

/// Natural Earth's country index (`country-index.bin`, still built and checked, and the
/// land index's source of a country where only the open ocean's zones hold the land) against
/// GEOS's exact polygon test. (The 10-million-point run lives in the benchmark package:
/// `geonews-bench exactness`.)
final class CountryIndexExactnessTests: XCTestCase {
    func testRandomPointsAgreeWithGEOS() throws {
        let index = try TestData.naturalEarthIndex()
        let exact = try ExactCountryLocator(boundaries: BoundaryFile(directory: TestData.directory))
        var rng = SplitMix64(seed: 42)
        var land = 0
        for _ in 0..<100_000 {
            let lon = rng.uniform(-180, 180), lat = rng.uniform(-90, 90)
            let ours = index.lookup(longitude: lon, latitude: lat)
            let theirs = try exact.countryIndex(at: Coordinate(latitude: lat, longitude: lon))
            XCTAssertEqual(ours < 0 ? nil : Int(ours), theirs, "at \(lat), \(lon)")
            if ours >= 0 { land += 1 }
        }
        XCTAssertGreaterThan(land, 20_000, "about 29 % of the sphere's lon/lat rectangle is land")
    }

    /// Points a hair (1e-9° to 1e-6°) to every side of polygon vertices, where a wrong edge
    /// convention or clipping error would show first.
    func testVertexAdjacentProbesAgreeWithGEOS() throws {
        let index = try TestData.naturalEarthIndex()
        let boundaries = try BoundaryFile(directory: TestData.directory)
        let exact = try ExactCountryLocator(boundaries: boundaries)
        let context = GEOSContext()
        var probes = 0, onEdge = 0, mismatches: [String] = []
        for i in stride(from: 0, to: boundaries.count, by: 1) {
            let g = try context.geometry(wkb: try boundaries.wkb(i))
            var vertices: [(Double, Double)] = []
            g.forEachRing { _, _, xy in
                var k = 0
                while k < xy.count { vertices.append((xy[k], xy[k + 1])); k += 2 }
            }
            for (n, v) in vertices.enumerated() where n % 97 == 0 {
                for d in [1e-9, 1e-7, 1e-6] {
                    for (dx, dy) in [(d, 0.0), (-d, 0), (0, d), (0, -d), (d, d), (-d, -d), (d, -d), (-d, d)] {
                        let x = v.0 + dx, y = v.1 + dy
                        guard abs(x) < 180, abs(y) < 90 else { continue }
                        let at = Coordinate(latitude: y, longitude: x)
                        let ours = index.lookup(longitude: x, latitude: y)
                        let boundary = try exact.boundaryCountries(at: at)
                        let exactAnswer = try exact.countryIndex(at: at)
                        if !boundary.isEmpty {
                            // Exactly on an edge (axis-parallel edges put probes there): either
                            // side, or none, is the polygons' answer.
                            onEdge += 1
                            if ours >= 0 && !boundary.contains(Int(ours)) && exactAnswer != Int(ours) {
                                mismatches.append("\(y), \(x) on an edge")
                            }
                            continue
                        }
                        probes += 1
                        if (ours < 0 ? nil : Int(ours)) != exactAnswer { mismatches.append("\(y), \(x)") }
                    }
                }
            }
        }
        XCTAssertGreaterThan(probes, 100_000)
        XCTAssertLessThan(onEdge, probes / 100)
        XCTAssertEqual(mismatches, [], "\(mismatches.count) of \(probes) probes differ")
    }
}

extension CountryIndexExactnessTests {
    /// Probes 1e-9° from a vertex that GEOS's rectangle clipping moved by one ulp onto a cell
    /// side (Stewart Island, the Alaskan coast), and one where the rounded determinant had the
    /// wrong sign: within ~1e-19° of an edge's line, settled by exact arithmetic.
    func testPointsWithinRoundingOfAClippedEdgeAgreeWithGEOS() throws {
        let index = try TestData.naturalEarthIndex()
        let exact = try ExactCountryLocator(boundaries: BoundaryFile(directory: TestData.directory))
        let probes = [(-47.24928250799991, 167.64177393600005), (60.62132496000004, -145.74982762699992)]
        for (lat, lon) in probes {
            let at = Coordinate(latitude: lat, longitude: lon)
            let theirs = try exact.countryIndex(at: at)
            XCTAssertNotNil(theirs)
            XCTAssertEqual(try exact.boundaryCountries(at: at), [], "not on an edge")
            XCTAssertEqual(index.countryIndex(at: at), theirs, "at \(lat), \(lon)")
        }
    }
}

extension CountryIndexExactnessTests {
    /// Round coordinates (GeoNames has many) lie on cell sides and corners, on the cuts that
    /// clipping made there, and on the lines joining a leaf's rings: each must still be the
    /// polygons' answer.
    func testPointsOnCellSidesAgreeWithGEOS() throws {
        let index = try TestData.naturalEarthIndex()
        let exact = try ExactCountryLocator(boundaries: BoundaryFile(directory: TestData.directory))
        var compared = 0, land = 0, mismatches: [String] = []
        for row in 0...200 {
            for col in 0...320 {
                let lat = 35 + Double(row) / 8, lon = -10 + Double(col) / 8
                let at = Coordinate(latitude: lat, longitude: lon)
                guard try exact.boundaryCountries(at: at).isEmpty else { continue }
                compared += 1
                let ours = index.countryIndex(at: at)
                if ours != nil { land += 1 }
                if ours != (try exact.countryIndex(at: at)) { mismatches.append("\(lat), \(lon)") }
            }
        }
        XCTAssertGreaterThan(compared, 64_000)
        XCTAssertGreaterThan(land, 30_000, "most of Europe's box is land")
        XCTAssertEqual(mismatches, [], "\(mismatches.count) of \(compared) lattice points differ")
    }
}

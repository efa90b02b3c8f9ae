import Foundation
import XCTest

@testable import GeoNewsGeodesy

/// `Geodesic.wgs84.inverse` against GeographicLib 2.1's `Geodesic.WGS84.Inverse` on the pairs
/// of `Fixtures/geodesic-reference.csv` (written by `Scripts/geodesic_reference.py`).
final class GeodesicReferenceTests: XCTestCase {
    /// One row: where it is in the file, its kind, the two positions and GeographicLib's s12
    /// (metres), azi1 and azi2 (degrees).
    struct Pair {
        let line: Int, kind: String
        let from: Coordinate, to: Coordinate
        let metres: Double, azi1: Double, azi2: Double
    }

    static let pairs: [Pair] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geodesic-reference.csv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var pairs: [Pair] = []
        for (i, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") && !line.hasPrefix("kind,") {
            let f = line.split(separator: ",")
            let v = f.dropFirst().compactMap { Double(String($0)) }
            precondition(f.count == 8 && v.count == 7, "geodesic-reference.csv line \(i + 1) is not kind + 7 numbers")
            pairs.append(
                Pair(
                    line: i + 1, kind: String(f[0]), from: Coordinate(latitude: v[0], longitude: v[1]),
                    to: Coordinate(latitude: v[2], longitude: v[3]), metres: v[4], azi1: v[5], azi2: v[6]))
        }
        return pairs
    }()

    /// The difference of two azimuths in degrees, folded into 0…180.
    func angleBetween(_ a: Double, _ b: Double) -> Double {
        abs(DegreeArithmetic.difference(a, b).d)
    }

    func testTheReferenceFileHoldsEveryKindOfPair() {
        let kinds = Dictionary(grouping: Self.pairs, by: \.kind).mapValues(\.count)
        XCTAssertGreaterThanOrEqual(Self.pairs.count, 3000)
        for kind in ["random", "short", "antipodal", "nearly-antipodal", "equatorial", "meridional", "polar", "antimeridian", "coincident"]
        {
            XCTAssertGreaterThanOrEqual(kinds[kind] ?? 0, 50, kind)
        }
    }

    func testDistanceIsWithinAMillimetreOfGeographicLibOnEveryPair() {
        var worst: [String: Double] = [:]
        for p in Self.pairs {
            let r = Geodesic.wgs84.inverse(from: p.from, to: p.to)
            let error = abs(r.distanceMetres - p.metres)
            worst[p.kind] = max(worst[p.kind] ?? 0, error)
            XCTAssertLessThanOrEqual(
                error, 0.001, "line \(p.line) \(p.kind): \(p.from) → \(p.to): \(r.distanceMetres) m, GeographicLib \(p.metres) m")
        }
        print(
            "largest distance error per kind (m):",
            worst.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.2g", $0.value))" }.joined(separator: ", "))
    }

    /// Azimuths agree to 1e-10° on lines of 1 km or more. Below that the azimuth is only as
    /// well defined as the coordinates' last bits allow (a 1 mm line at 50° N leaves an
    /// azimuth that moves by 1e-4° with one ulp of latitude), so shorter lines are held to the
    /// sideways offset it makes at the far end, s₁₂·Δα ≤ 1 µm, as every line is.
    func testAzimuthsAgreeWithGeographicLib() {
        var worstLong = 0.0, worstOffset = 0.0
        defer {
            print(
                String(format: "largest azimuth difference on lines of 1 km or more: %.2g°; largest s12·Δα: %.2g m", worstLong, worstOffset)
            )
        }
        for p in Self.pairs {
            let r = Geodesic.wgs84.inverse(from: p.from, to: p.to)
            let error = max(angleBetween(r.initialAzimuth, p.azi1), angleBetween(r.finalAzimuth, p.azi2))
            worstOffset = max(worstOffset, error * .pi / 180 * p.metres)
            if p.metres >= 1000 { worstLong = max(worstLong, error) }
            let what =
                "line \(p.line) \(p.kind): \(p.from) → \(p.to): azimuths \(r.initialAzimuth), \(r.finalAzimuth); GeographicLib \(p.azi1), \(p.azi2)"
            XCTAssertLessThanOrEqual(error * .pi / 180 * p.metres, 1e-6, what)
            if p.metres >= 1000 { XCTAssertLessThanOrEqual(error, 1e-10, what) }
        }
    }

    func testTheSolutionIsTheSameBothWays() {
        for p in Self.pairs where p.kind != "antipodal" {
            let forward = Geodesic.wgs84.inverse(from: p.from, to: p.to)
            let back = Geodesic.wgs84.inverse(from: p.to, to: p.from)
            XCTAssertEqual(forward.distanceMetres, back.distanceMetres, accuracy: 1e-8, "line \(p.line)")
            // Where the path is unique, the way back leaves opposite to the way in.
            if p.kind == "random" || (p.kind == "short" && p.metres >= 1000) {
                XCTAssertEqual(angleBetween(back.initialAzimuth, forward.finalAzimuth + 180), 0, accuracy: 1e-9, "line \(p.line)")
            }
        }
    }
}

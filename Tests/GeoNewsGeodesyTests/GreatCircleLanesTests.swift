import CLaneMath
import XCTest

@testable import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#endif

/// The lane distances against the scalar haversine they stand in for: within about 1e-15 of
/// it, the same bits for a pair whatever is measured with it, and the scalar's answer itself
/// for what no coordinate holds.
final class GreatCircleLanesTests: XCTestCase {
    private struct Pairs {
        var from: [Coordinate] = [], to: [Coordinate] = []

        mutating func append(_ a: Coordinate, _ b: Coordinate) {
            from.append(a)
            to.append(b)
        }

        /// The lanes' distances of every pair, `group` pairs per call.
        func lanes(group: Int) -> [Double] {
            var out = [Double](repeating: .nan, count: from.count)
            var start = 0
            while start < from.count {
                let end = min(start + group, from.count)
                let a = from[start..<end], b = to[start..<end]
                let lat = a.map(\.latitude), lon = a.map(\.longitude), lat2 = b.map(\.latitude), lon2 = b.map(\.longitude)
                let cos2 = b.map { cos($0.latitude * .pi / 180) }
                var d = [Double](repeating: .nan, count: end - start)
                GreatCircle.distances(
                    count: end - start, latitudes: lat, longitudes: lon, toLatitudes: lat2, toLongitudes: lon2, cosinesOfLatitude: cos2,
                    into: &d)
                out.replaceSubrange(start..<end, with: d)
                start = end
            }
            return out
        }
    }

    /// Seeded pairs uniform over the sphere, and the hard places: the poles, both sides of the
    /// antimeridian, coincident points, metres apart, and nearly antipodal.
    private func pairs() -> Pairs {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func uniform() -> Coordinate { Coordinate(latitude: asin(2 * next() - 1) * 180 / .pi, longitude: 360 * next() - 180) }
        var p = Pairs()
        for _ in 0..<40_000 { p.append(uniform(), uniform()) }
        for _ in 0..<5_000 {
            let a = uniform()
            p.append(a, Coordinate(latitude: a.latitude, longitude: a.longitude))
            p.append(a, Coordinate(latitude: min(90, a.latitude + 1e-5 * next()), longitude: a.longitude))
            let antipode = Coordinate(latitude: -a.latitude, longitude: a.longitude > 0 ? a.longitude - 180 : a.longitude + 180)
            p.append(a, Coordinate(latitude: antipode.latitude + 1e-4 * (next() - 0.5), longitude: antipode.longitude))
        }
        for lat in stride(from: -90.0, through: 90, by: 7.5) {
            p.append(Coordinate(latitude: lat, longitude: 179.999), Coordinate(latitude: -lat / 2, longitude: -179.999))
            p.append(Coordinate(latitude: 90, longitude: lat * 2), Coordinate(latitude: lat, longitude: -180))
            p.append(Coordinate(latitude: -90, longitude: 0), Coordinate(latitude: lat, longitude: 180))
        }
        return p
    }

    func testTheLanesAgreeWithTheScalarDistance() {
        let p = pairs()
        let lanes = p.lanes(group: 32)
        var worstNear = 0.0, worstFar = 0.0, worstAntipode = 0.0, exact = 0
        for i in p.from.indices {
            let scalar = GreatCircle.distance(from: p.from[i], to: p.to[i])
            let d = lanes[i]
            XCTAssert(d >= 0 && d <= .pi * GreatCircle.meanEarthRadiusKm + 1e-9, "\(p.from[i]) → \(p.to[i]): \(d)")
            if d == scalar { exact += 1 }
            let error = abs(d - scalar)
            // Up to a few thousand km the two agree to a few units in the last place. Towards
            // the antipode asin amplifies both's last-place errors (the haversine itself is then
            // good to a metre): by 20,000 km they differ by centimetres.
            if scalar < 5_000 {
                worstNear = max(worstNear, error / max(scalar, 1e-3))
            } else if scalar < 19_000 {
                worstFar = max(worstFar, error / scalar)
            } else {
                worstAntipode = max(worstAntipode, error)
            }
        }
        XCTAssertLessThan(worstNear, 4e-15)
        XCTAssertLessThan(worstFar, 1e-13)
        XCTAssertLessThan(worstAntipode, 0.001)
        // Most agree to the bit; the rest by a unit or two in the last place.
        XCTAssertGreaterThan(exact, p.from.count / 2)
    }

    func testAPairGetsTheSameBitsAloneOrInAnyGroup() {
        let p = pairs()
        let alone = p.lanes(group: 1)
        for group in [3, 4, 5, 32] {
            let grouped = p.lanes(group: group)
            for i in p.from.indices where grouped[i].bitPattern != alone[i].bitPattern {
                XCTFail("pair \(i) in groups of \(group): \(grouped[i]) alone \(alone[i])")
                return
            }
        }
    }

    /// Where the processor has AVX2 the loop compiled for it is the one used: it gives the
    /// baseline loop's bits for every pair.
    func testTheAVX2LoopGivesTheBaselineBits() throws {
        #if arch(x86_64)
        try XCTSkipUnless(geonews_has_avx2() != 0, "no AVX2 on this processor")
        let p = pairs()
        let lat = p.from.map(\.latitude), lon = p.from.map(\.longitude), lat2 = p.to.map(\.latitude), lon2 = p.to.map(\.longitude)
        let cos2 = p.to.map { cos($0.latitude * .pi / 180) }
        var baseline = [Double](repeating: .nan, count: lat.count), wide = baseline
        geonews_haversine_km_baseline(lat.count, lat, lon, lat2, lon2, cos2, GreatCircle.meanEarthRadiusKm, &baseline)
        geonews_haversine_km_avx2(lat.count, lat, lon, lat2, lon2, cos2, GreatCircle.meanEarthRadiusKm, &wide)
        XCTAssertEqual(baseline.filter(\.isNaN).count, 0)
        for i in lat.indices where wide[i].bitPattern != baseline[i].bitPattern {
            XCTFail("pair \(i): AVX2 \(wide[i]), baseline \(baseline[i])")
            return
        }
        #else
        throw XCTSkip("AVX2 is x86-64's")
        #endif
    }

    func testWhatNoCoordinateHoldsIsMeasuredByTheScalarDistance() {
        var p = Pairs()
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        for odd in [
            Coordinate(latitude: 95, longitude: 10), Coordinate(latitude: 10, longitude: 200),
            Coordinate(latitude: -1e300, longitude: 0), Coordinate(latitude: .nan, longitude: 0),
            Coordinate(latitude: 0, longitude: .infinity),
        ] {
            p.append(odd, paris)
            p.append(paris, odd)
        }
        p.append(paris, Coordinate(latitude: 51.5074, longitude: -0.1278))
        let lanes = p.lanes(group: 4)
        for i in p.from.indices {
            let scalar = GreatCircle.distance(from: p.from[i], to: p.to[i])
            if scalar.isNaN {
                XCTAssert(lanes[i].isNaN, "\(p.from[i]) → \(p.to[i])")
            } else if i < p.from.count - 1 {
                XCTAssertEqual(lanes[i].bitPattern, scalar.bitPattern, "\(p.from[i]) → \(p.to[i])")
            }
        }
        XCTAssertEqual(lanes.last!, 343.56, accuracy: 0.01)
    }
}

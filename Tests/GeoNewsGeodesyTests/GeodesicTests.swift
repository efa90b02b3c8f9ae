import XCTest

@testable import GeoNewsGeodesy

/// The awkward places of the inverse problem, with values GeographicLib publishes or that
/// follow from the ellipsoid's geometry.
final class GeodesicTests: XCTestCase {
    let wgs84 = Geodesic.wgs84

    func testWellingtonToSalamancaAsInGeographicLibsDocumentation() {
        // The example of geographiclib 2.1's Geodesic docstring (nearly antipodal).
        let r = wgs84.inverse(from: .init(latitude: -41.32, longitude: 174.81), to: .init(latitude: 40.96, longitude: -5.50))
        XCTAssertEqual(r.distanceMetres, 19_959_679.26735382, accuracy: 1e-6)
        XCTAssertEqual(r.initialAzimuth, 161.06766998615882, accuracy: 1e-9)
        XCTAssertEqual(r.finalAzimuth, 18.825195123248392, accuracy: 1e-9)
        XCTAssertEqual(r.arcDegrees, 179.6197069334283, accuracy: 1e-9)
        XCTAssertEqual(r.distanceKm, 19_959.67926735382, accuracy: 1e-9)
    }

    func testPoleToPoleIsTwiceTheMeridianQuadrant() {
        // The quarter meridian of WGS 84 is 10 001 965.729 m (GeographicLib, `Geodesic.WGS84`).
        let r = wgs84.inverse(from: .init(latitude: 90, longitude: 0), to: .init(latitude: -90, longitude: 0))
        XCTAssertEqual(r.distanceMetres, 2 * 10_001_965.729_3, accuracy: 1e-3)
        XCTAssertEqual(r.initialAzimuth, 180)
        XCTAssertEqual(r.finalAzimuth, 180)
        XCTAssertEqual(
            wgs84.inverse(from: .init(latitude: 0, longitude: 10), to: .init(latitude: 90, longitude: 10)).distanceMetres,
            10_001_965.729_3, accuracy: 1e-3)
    }

    func testEquatorialDistanceIsTheEquatorialRadiusTimesTheAngle() {
        let r = wgs84.inverse(from: .init(latitude: 0, longitude: -170), to: .init(latitude: 0, longitude: 170))
        XCTAssertEqual(r.distanceMetres, 6_378_137 * 20 * .pi / 180, accuracy: 1e-6)
        XCTAssertEqual(r.initialAzimuth, -90)
        XCTAssertEqual(r.initialBearing, 270)
        XCTAssertEqual(r.finalBearing, 270)
    }

    func testAntipodesOnTheEquatorGoOverAPole() {
        // Beyond 179.4° of longitude the equator is no longer shortest: the geodesic between
        // equatorial antipodes is a meridian, half the meridian's length.
        let r = wgs84.inverse(from: .init(latitude: 0, longitude: 0), to: .init(latitude: 0, longitude: 180))
        XCTAssertEqual(r.distanceMetres, 2 * 10_001_965.729_3, accuracy: 1e-3)
        XCTAssertEqual(r.initialAzimuth, 0)
        XCTAssertEqual(r.finalAzimuth, 180)
    }

    func testCoincidentPointsAreZeroApart() {
        for p in [
            Coordinate(latitude: 51.5, longitude: -0.1), .init(latitude: 90, longitude: 45), .init(latitude: -90, longitude: 0),
            .init(latitude: 0, longitude: 180),
        ] {
            let r = wgs84.inverse(from: p, to: p)
            XCTAssertEqual(r.distanceMetres, 0, "\(p)")
            XCTAssertFalse(r.initialAzimuth.isNaN, "\(p)")
        }
        XCTAssertEqual(wgs84.inverse(from: .init(latitude: 12, longitude: 180), to: .init(latitude: 12, longitude: -180)).distanceMetres, 0)
    }

    func testNearlyAntipodalPairsConvergeToTheAntipodalDistance() {
        // A billionth of a degree from the antipode, the distance is within a centimetre of
        // the antipodal one: the astroid start keeps Newton's method from wandering off.
        let exact = wgs84.inverse(from: .init(latitude: 0.5, longitude: 0), to: .init(latitude: -0.5, longitude: 180))
        let near = wgs84.inverse(from: .init(latitude: 0.5, longitude: 0), to: .init(latitude: -0.5, longitude: 179.999_999_999))
        XCTAssertLessThan(abs(exact.distanceMetres - near.distanceMetres), 0.01)
        XCTAssertGreaterThan(near.distanceMetres, 20_000_000)
    }

    func testTheEllipsoidDiffersFromTheSphereByUnderAHalfPercentOnLongPaths() {
        let a = Coordinate(latitude: -33.9, longitude: 18.4), b = Coordinate(latitude: 51.5, longitude: -0.1)
        let ellipsoid = wgs84.inverse(from: a, to: b).distanceKm
        XCTAssertEqual(GreatCircle.distance(from: a, to: b), ellipsoid, accuracy: ellipsoid * 0.005)
        XCTAssertEqual(wgs84.inverse(from: a, to: b).initialBearing, GreatCircle.initialBearing(from: a, to: b), accuracy: 0.5)
    }

    func testLatitudesOutsideTheRangeGiveNaN() {
        let r = wgs84.inverse(from: .init(latitude: 91, longitude: 0), to: .init(latitude: 0, longitude: 0))
        XCTAssertTrue(r.distanceMetres.isNaN)
    }

    func testTheAstroidRootSolvesItsQuartic() {
        for (x, y) in [(-0.5, -0.3), (-1.2, -0.01), (0.3, -2.0), (-0.999, -1e-6)] {
            let k = Geodesic.astroid(x, y)
            let residual = k * k * k * k + 2 * k * k * k - (x * x + y * y - 1) * k * k - 2 * y * y * k - y * y
            XCTAssertEqual(residual, 0, accuracy: 1e-12, "x \(x), y \(y)")
            XCTAssertGreaterThan(k, 0)
        }
    }
}

import XCTest

@testable import GeoNewsGeodesy

/// Reference values: geodesics on WGS 84 from GeographicLib 2.0 (`Geodesic.WGS84.Inverse`),
/// the first two as printed in GeographicLib's own documentation examples.
final class GreatCircleTests: XCTestCase {
    struct Reference {
        let name: String
        let from: Coordinate
        let to: Coordinate
        let geodesicKm: Double
        let azimuth: Double
    }

    let references = [
        Reference(
            name: "JFK to LHR", from: .init(latitude: 40.6, longitude: -73.8), to: .init(latitude: 51.6, longitude: -0.5),
            geodesicKm: 5551.759, azimuth: 51.198883),
        Reference(
            name: "Wellington to Salamanca", from: .init(latitude: -41.32, longitude: 174.81), to: .init(latitude: 40.96, longitude: -5.50),
            geodesicKm: 19959.679, azimuth: 161.067670),
        Reference(
            name: "Paris to Berlin", from: .init(latitude: 48.8566, longitude: 2.3522), to: .init(latitude: 52.52, longitude: 13.405),
            geodesicKm: 879.699, azimuth: 58.240069),
        Reference(
            name: "across the antimeridian at Fiji", from: .init(latitude: -17.8, longitude: 178),
            to: .init(latitude: -17.8, longitude: -178), geodesicKm: 424.087, azimuth: 90.611617),
        Reference(
            name: "Sydney to Santiago", from: .init(latitude: -33.8688, longitude: 151.2093),
            to: .init(latitude: -33.4489, longitude: -70.6693), geodesicKm: 11368.984, azimuth: 145.334489),
        Reference(
            name: "one degree of meridian at the equator", from: .init(latitude: 0, longitude: 0), to: .init(latitude: 1, longitude: 0),
            geodesicKm: 110.574, azimuth: 0),
        Reference(
            name: "one degree of equator", from: .init(latitude: 0, longitude: 0), to: .init(latitude: 0, longitude: 1),
            geodesicKm: 111.319, azimuth: 90),
    ]

    func testDistanceIsWithinTheDocumentedSphereErrorOfTheWGS84Geodesic() {
        for r in references {
            let d = GreatCircle.distance(from: r.from, to: r.to)
            XCTAssertEqual(d, r.geodesicKm, accuracy: r.geodesicKm * 0.0057, r.name)
        }
    }

    func testLongPathsAreWithinAThirdOfAPercent() {
        for r in references where r.geodesicKm > 1000 {
            XCTAssertEqual(GreatCircle.distance(from: r.from, to: r.to), r.geodesicKm, accuracy: r.geodesicKm * 0.003, r.name)
        }
    }

    func testSphericalIdentities() {
        let earthRadiusKm = GreatCircle.meanEarthRadiusKm
        XCTAssertEqual(
            GreatCircle.distance(from: .init(latitude: 0, longitude: 0), to: .init(latitude: 90, longitude: 0)), earthRadiusKm * .pi / 2,
            accuracy: 1e-9
        )
        XCTAssertEqual(
            GreatCircle.distance(from: .init(latitude: 10, longitude: 20), to: .init(latitude: -10, longitude: -160)), earthRadiusKm * .pi,
            accuracy: 1e-3)
        XCTAssertEqual(
            GreatCircle.distance(from: .init(latitude: 90, longitude: 0), to: .init(latitude: -90, longitude: 0)), 20015.1144,
            accuracy: 2e-3)
        XCTAssertEqual(GreatCircle.distance(from: .init(latitude: 51.5, longitude: -0.1), to: .init(latitude: 51.5, longitude: -0.1)), 0)
    }

    func testLongitudesOnEitherSideOfTheAntimeridianAreClose() {
        let east = Coordinate(latitude: 65, longitude: 179.99), west = Coordinate(latitude: 65, longitude: -179.99)
        XCTAssertEqual(
            GreatCircle.distance(from: east, to: west), 0.02 * .pi / 180 * GreatCircle.meanEarthRadiusKm * cos(65 * .pi / 180),
            accuracy: 1e-6)
        XCTAssertEqual(
            GreatCircle.distance(from: .init(latitude: 0, longitude: 180), to: .init(latitude: 0, longitude: -180)), 0, accuracy: 1e-9)
    }

    func testInitialBearingMatchesTheGeodesicAzimuthToHalfADegree() {
        // Near-antipodal pairs (Wellington to Salamanca) are left out: there the sphere's and
        // the ellipsoid's shortest paths leave in visibly different directions.
        for r in references where r.geodesicKm < 19000 {
            XCTAssertEqual(GreatCircle.initialBearing(from: r.from, to: r.to), r.azimuth, accuracy: 0.5, r.name)
        }
        XCTAssertEqual(GreatCircle.initialBearing(from: .init(latitude: 0, longitude: 0), to: .init(latitude: -1, longitude: 0)), 180)
        XCTAssertEqual(GreatCircle.initialBearing(from: .init(latitude: 0, longitude: 0), to: .init(latitude: 0, longitude: -1)), 270)
    }

    func testDestinationInvertsDistanceAndBearing() {
        let start = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let end = GreatCircle.destination(from: start, bearing: 58.24, distanceKm: 879.7)
        XCTAssertEqual(GreatCircle.distance(from: start, to: end), 879.7, accuracy: 1e-6)
        let across = GreatCircle.destination(from: .init(latitude: -17.8, longitude: 179.5), bearing: 90, distanceKm: 200)
        XCTAssertLessThan(across.longitude, -178)
    }

    func testValidationNamesTheBadValue() {
        XCTAssertThrowsError(try Coordinate.validated(latitude: 91.2, longitude: 0)) {
            XCTAssertEqual("\($0)", "latitude 91.2 is outside -90…90")
        }
        XCTAssertThrowsError(try Coordinate.validated(latitude: 0, longitude: -180.5)) {
            XCTAssertEqual("\($0)", "longitude -180.5 is outside -180…180")
        }
        XCTAssertThrowsError(try Coordinate.validated(latitude: .nan, longitude: 0))
        XCTAssertNoThrow(try Coordinate.validated(latitude: -90, longitude: 180))
        XCTAssertEqual(GreatCircle.normalizedLongitude(190), -170)
        XCTAssertEqual(GreatCircle.normalizedLongitude(-540), -180)
    }
}

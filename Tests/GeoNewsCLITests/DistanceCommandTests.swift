import Foundation
import XCTest

/// `geonews distance` through the real executable. Geodesic reference values are GeographicLib
/// 2.1's `Geodesic.WGS84.Inverse`.
final class DistanceCommandTests: XCTestCase {
    func testNegativeCoordinatesWorkAsTyped() throws {
        let forms: [[String]] = [
            ["distance", "-33.9,18.4", "51.5,-0.1"],
            ["distance", "--json", "-33.9,18.4", "51.5,-0.1"],
            ["distance", "-33.9,18.4", "--json", "51.5,-0.1", "--ellipsoid"],
            ["distance", "--", "-33.9,18.4", "51.5,-0.1"],
            ["distance", "-33.9, 18.4", "51.5 ,-0.1"],
        ]
        for args in forms {
            let r = try CommandRunner.geonews(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "", "\(args)")
            XCTAssertTrue(r.stdout.contains("33.9000° S, 18.4000° E") || r.stdout.contains("\"lat\":-33.9"), "\(args): \(r.stdout)")
        }
        let bothNegative = try CommandRunner.geonews(["distance", "-33,-18", "-51,-1", "--ellipsoid", "--json"])
        XCTAssertEqual(bothNegative.status, 0, bothNegative.stderr)
        let geodesic = try XCTUnwrap(try CommandRunner.json(bothNegative.stdout)["geodesic"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(geodesic["distanceM"] as? Double), 2_432_725.771897959, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(geodesic["initialAzimuth"] as? Double), 150.31080937111142, accuracy: 1e-9)
    }

    func testHumanOutputGivesKilometresAndBearingAndWithTheEllipsoidTheGeodesic() throws {
        let sphere = try CommandRunner.geonews(["distance", "-33.9,18.4", "51.5,-0.1"])
        XCTAssertEqual(
            sphere.stdout,
            """
            From       33.9000° S, 18.4000° E
            To         51.5000° N, 0.1000° W
            Distance   9666.6 km on the great circle (sphere of radius 6371.0088 km)
            Bearing    348.6° initial

            """)
        let ellipsoid = try CommandRunner.geonews(["distance", "-33.9,18.4", "51.5,-0.1", "--ellipsoid"])
        // GeographicLib: s12 9631973.17393528 m, azi1 -11.46362239592039°, azi2 -15.350551988138566°.
        XCTAssertTrue(ellipsoid.stdout.contains("Geodesic   9631.973174 km on the WGS 84 ellipsoid"), ellipsoid.stdout)
        XCTAssertTrue(ellipsoid.stdout.contains("Azimuths   348.536378° initial, 344.649448° final"), ellipsoid.stdout)
    }

    func testJSONCarriesTheDocumentedKeys() throws {
        let r = try CommandRunner.geonews(["distance", "-33.9,18.4", "51.5,-0.1", "--json", "--ellipsoid"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try CommandRunner.json(r.stdout)
        XCTAssertEqual(Set(json.keys), ["from", "to", "greatCircle", "geodesic"])
        let from = try XCTUnwrap(json["from"] as? [String: Any]), to = try XCTUnwrap(json["to"] as? [String: Any])
        XCTAssertEqual(from["lat"] as? Double, -33.9)
        XCTAssertEqual(from["lon"] as? Double, 18.4)
        XCTAssertEqual(to["lat"] as? Double, 51.5)
        XCTAssertEqual(to["lon"] as? Double, -0.1)
        let sphere = try XCTUnwrap(json["greatCircle"] as? [String: Any])
        XCTAssertEqual(Set(sphere.keys), ["distanceKm", "initialBearing"])
        XCTAssertEqual(try XCTUnwrap(sphere["distanceKm"] as? Double), 9666.558, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(sphere["initialBearing"] as? Double), 348.591, accuracy: 0.001)
        let geodesic = try XCTUnwrap(json["geodesic"] as? [String: Any])
        XCTAssertEqual(Set(geodesic.keys), ["distanceM", "distanceKm", "initialAzimuth", "finalAzimuth"])
        XCTAssertEqual(try XCTUnwrap(geodesic["distanceM"] as? Double), 9_631_973.17393528, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(geodesic["distanceKm"] as? Double), 9_631.97317393528, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(geodesic["initialAzimuth"] as? Double), 360 - 11.46362239592039, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(geodesic["finalAzimuth"] as? Double), 360 - 15.350551988138566, accuracy: 1e-9)

        let sphereOnly = try CommandRunner.json(try CommandRunner.geonews(["distance", "0,0", "0,1", "--json"]).stdout)
        XCTAssertTrue(sphereOnly["geodesic"] is NSNull, "geodesic is null without --ellipsoid")
    }

    func testAntipodesAndCoincidentPointsThroughTheCommand() throws {
        let antipodes = try CommandRunner.json(try CommandRunner.geonews(["distance", "0,0", "0,180", "--ellipsoid", "--json"]).stdout)
        let geodesic = try XCTUnwrap(antipodes["geodesic"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(geodesic["distanceM"] as? Double), 20_003_931.4586, accuracy: 0.001)
        let same = try CommandRunner.json(try CommandRunner.geonews(["distance", "-90,0", "-90,0", "--ellipsoid", "--json"]).stdout)
        XCTAssertEqual((same["geodesic"] as? [String: Any])?["distanceM"] as? Double, 0)
        XCTAssertEqual((same["greatCircle"] as? [String: Any])?["distanceKm"] as? Double, 0)
    }

    func testBadInputIsOneLineNamingTheValueWithExit64() throws {
        let cases: [([String], String)] = [
            (["91,0", "0,0"], "start '91,0': latitude 91 is outside -90…90"),
            (["0,0", "-91,0"], "end '-91,0': latitude -91 is outside -90…90"),
            (["0,0", "10,-181"], "end '10,-181': longitude -181 is outside -180…180"),
            (["abc", "0,0"], "start 'abc' is not LAT,LON"),
            (["abc,1", "0,0"], "start 'abc,1': latitude 'abc' is not a number"),
            (["nan,1", "0,0"], "start 'nan,1': latitude nan is not a finite number"),
            (["1,2,3", "0,0"], "start '1,2,3' is not LAT,LON"),
            (["-33.9", "0,0"], "start '-33.9' is not LAT,LON"),
            (["51.5,-0.1"], "missing the end position after '51.5,-0.1'"),
            (["-33.9,18.4"], "missing the end position after '-33.9,18.4'"),
            ([], "missing the start and end positions"),
            (["1,2", "3,4", "-5,6"], "unexpected third position '-5,6'"),
            (["1,2", "3,4", "--elipsoid"], "unknown option '--elipsoid'"),
        ]
        for (args, message) in cases {
            let r = try CommandRunner.geonews(["distance"] + args)
            XCTAssertEqual(r.status, 64, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("geonews: " + message), "\(args): \(r.stderr)")
        }
    }
}

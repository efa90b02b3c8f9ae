import GeoNewsClustering
import GeoNewsGeodesy
import XCTest

/// Every number of a cluster query is bounded where its text is read, so that the zoom, the
/// box and the description that follow are finite and never trap a conversion.
final class QueryBoundsTests: XCTestCase {
    /// The query strings that killed `geonews-serve` (exit 132) through `Int(Double)`.
    static let crashQueries: [(altitude: String, viewport: String, parameter: String)] = [
        ("1e308km", "390x844", "altitude"), ("1e22m", "390x844", "altitude"),
        ("15000km", "1e19x844", "viewport"), ("15000km", "390x1e300", "viewport"),
    ]

    func testTheCrashInputsAreRefusedNamingTheirValue() {
        for (altitude, viewport, parameter) in Self.crashQueries {
            XCTAssertThrowsError(try ClusterQuery(zoom: nil, altitude: altitude, bbox: nil, center: nil, viewport: viewport)) {
                let text = "\($0)"
                XCTAssertTrue(text.hasPrefix(parameter) && text.contains(parameter == "altitude" ? altitude : viewport), text)
            }
        }
    }

    func testAltitudesAreBetweenOneMetreAndAMillionKilometres() throws {
        XCTAssertEqual(try CameraAltitude(parsing: "1m").metres, 1)
        XCTAssertEqual(try CameraAltitude(parsing: "1000000km").metres, 1e9)
        for text in ["1e308km", "1e22m", "1000001km", "0.5m", "1e-300m"] {
            XCTAssertThrowsError(try CameraAltitude(parsing: text)) {
                XCTAssertEqual($0 as? CameraAltitudeError, .outOfRange(text))
                XCTAssertEqual("\($0)", "altitude '\(text)' is outside 1m…1000000km")
            }
        }
        // Built from a number rather than parsed, any finite altitude still describes itself.
        XCTAssertEqual("\(try CameraAltitude(metres: 1e300))", "1e+300m")
        XCTAssertEqual("\(try CameraAltitude(metres: 1e22))", "1e+22m")
        XCTAssertEqual("\(try CameraAltitude(metres: 2500.5))", "2500.5m")
    }

    func testViewportsZoomsAndBoxesHaveLimits() throws {
        XCTAssertEqual(try ClusterQueryText.viewport("100000x1").width, 100_000)
        for text in ["1e19x844", "390x1e300", "0.5x844", "100001x10", "390x", "x390x844"] {
            XCTAssertThrowsError(try ClusterQueryText.viewport(text)) { XCTAssertTrue("\($0)".hasPrefix("viewport '\(text)'"), "\($0)") }
        }
        XCTAssertEqual(try ClusterQueryText.zoom("-32"), -32)
        XCTAssertEqual(try ClusterQueryText.zoom("255"), 255)
        for text in ["-32.5", "256", "1e300", "-1e300"] {
            XCTAssertThrowsError(try ClusterQueryText.zoom(text)) {
                XCTAssertEqual("\($0)", "zoom '\(text)' is outside -32…255")
            }
        }
        XCTAssertEqual(try ClusterQueryText.bounds("520,-50,550,-30").west, 520, "a world copy")
        for text in ["0,-91,1,0", "0,0,1,90.5", "36001,0,36002,1", "-1e300,0,1,1"] {
            XCTAssertThrowsError(try ClusterQueryText.bounds(text)) {
                XCTAssertEqual($0 as? ClusterQueryError, .boundsOutOfRange(text: text))
                XCTAssertTrue("\($0)".hasPrefix("bbox '\(text)'"))
            }
        }
    }

    /// The corners of the limits give a finite zoom and box, and an index answers them.
    func testEveryQueryWithinTheLimitsIsAnswered() throws {
        let index = try ClusterIndex(
            points: (0..<200).map { Coordinate(latitude: Double($0 % 170) - 85, longitude: Double($0 * 7 % 360) - 180) })
        for altitude in ["1m", "1000000km", "15000km"] {
            for viewport in ["1x1", "100000x100000", "1x100000"] {
                for center in ["0,0", "90,180", "-90,-180", "85.0511,0"] {
                    for tileSize in [256, 512] {
                        let query = try ClusterQuery(
                            zoom: nil, altitude: altitude, bbox: nil, center: center, viewport: viewport, tileSize: tileSize)
                        let b = query.bounds
                        XCTAssertTrue(query.zoom.isFinite && [b.west, b.south, b.east, b.north].allSatisfy(\.isFinite), query.origin)
                        XCTAssertNoThrow(try index.clusters(in: b, zoom: query.zoom), query.origin)
                        XCTAssertTrue(query.origin.contains(" in \(viewport) → zoom "), query.origin)
                    }
                }
            }
        }
        for zoom in ["-32", "255", "0.5"] {
            let query = try ClusterQuery(zoom: zoom, altitude: nil, bbox: nil, center: "0,0", viewport: "100000x100000")
            XCTAssertTrue([query.bounds.west, query.bounds.east].allSatisfy(\.isFinite))
            XCTAssertNoThrow(try index.clusters(in: query.bounds, zoom: query.zoom))
            XCTAssertEqual(query.origin, "zoom \(zoom)")
        }
    }
}

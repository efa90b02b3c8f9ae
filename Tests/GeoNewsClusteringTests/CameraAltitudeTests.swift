import XCTest

@testable import GeoNewsClustering

final class CameraAltitudeTests: XCTestCase {
    func testParsesKilometresAndMetres() throws {
        XCTAssertEqual(try CameraAltitude(parsing: "15000km").metres, 15_000_000)
        XCTAssertEqual(try CameraAltitude(parsing: "10km").metres, 10_000)
        XCTAssertEqual(try CameraAltitude(parsing: "2500m").metres, 2500)
        XCTAssertEqual(try CameraAltitude(parsing: " 1.5 km").metres, 1500)
        XCTAssertEqual("\(try CameraAltitude(parsing: "15000km"))", "15000km")
    }

    func testRefusesTextThatIsNotAnAltitude() {
        for text in ["15000", "km", "abc", "10 miles", "nankm", "infm"] {
            XCTAssertThrowsError(try CameraAltitude(parsing: text)) {
                XCTAssertEqual($0 as? CameraAltitudeError, .unparseable(text))
                XCTAssertTrue("\($0)".contains("'\(text)'"))
            }
        }
        for text in ["0m", "-5km"] {
            XCTAssertThrowsError(try CameraAltitude(parsing: text)) { XCTAssertEqual($0 as? CameraAltitudeError, .notPositive(text)) }
        }
    }

    func testTenKilometresOverTheEquatorIsZoomThirteenPointSix() throws {
        // metres per point = 10 000 · 2 · tan 15° / 844 = 6.34950; the equator is
        // 2π · 6 378 137 = 40 075 016.7 m; 40 075 016.7 / 6.34950 / 512 = 12 327.2 = 2^13.5896.
        let ten = try CameraAltitude(parsing: "10km")
        XCTAssertEqual(ten.zoom(latitude: 0, viewportHeight: 844), 13.5896, accuracy: 1e-4)
        // 15 000 km is 1500 times higher: 13.5896 − log2(1500) = 13.5896 − 10.5507 = 3.0389.
        XCTAssertEqual(try CameraAltitude(parsing: "15000km").zoom(), 3.0389, accuracy: 1e-4)
        // At 60° Mercator stretches twice as much (cos 60° = ½): one zoom level less.
        XCTAssertEqual(ten.zoom(latitude: 60), ten.zoom(latitude: 0) - 1, accuracy: 1e-12)
        // 256-point tiles: one level more. A viewport twice as tall: one level more.
        XCTAssertEqual(ten.zoom(tileSize: 256), ten.zoom() + 1, accuracy: 1e-12)
        XCTAssertEqual(ten.zoom(viewportHeight: 1688), ten.zoom() + 1, accuracy: 1e-12)
        // A quarter of the altitude: two levels more.
        XCTAssertEqual(try CameraAltitude(parsing: "2500m").zoom(), ten.zoom() + 2, accuracy: 1e-12)
    }

    func testZoomAndAltitudeConvertBothWays() throws {
        for zoom in [0.0, 3.0389, 10, 16.5] {
            for latitude in [0.0, 45, -70] {
                let a = try CameraAltitude.forZoom(zoom, latitude: latitude)
                XCTAssertEqual(a.zoom(latitude: latitude), zoom, accuracy: 1e-9)
            }
        }
        XCTAssertThrowsError(try CameraAltitude(metres: .nan))
        // Beyond Mercator's edge the latitude is clamped, so the poles still give a finite zoom.
        XCTAssertTrue(try CameraAltitude(parsing: "10km").zoom(latitude: 90).isFinite)
    }
}

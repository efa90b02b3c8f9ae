import GeoNewsClustering
import GeoNewsGeodesy
import XCTest

final class ClusterQueryTextTests: XCTestCase {
    func testBoxesWithNegativeNumbersAndSpacesAreRead() throws {
        XCTAssertEqual(try ClusterQueryText.bounds("-180,-90,180,90"), .world)
        XCTAssertEqual(try ClusterQueryText.bounds(" 170, -20 ,-170,20"), BoundingBox(west: 170, south: -20, east: -170, north: 20))
    }

    func testBadBoxesNameTheTextAsTyped() {
        XCTAssertThrowsError(try ClusterQueryText.bounds("1,2,3")) {
            XCTAssertEqual("\($0)", "bbox '1,2,3' is not four numbers W,S,E,N")
        }
        XCTAssertThrowsError(try ClusterQueryText.bounds("0,1e400,1,2")) {
            XCTAssertEqual("\($0)", "bbox '0,1e400,1,2' is not four numbers W,S,E,N")
        }
        XCTAssertThrowsError(try ClusterQueryText.bounds("0,10,1,5")) {
            XCTAssertEqual($0 as? ClusterQueryError, .boundsSouthAboveNorth(text: "0,10,1,5", south: 10, north: 5))
        }
    }

    func testCentresAreCheckedLikeAnyTypedPosition() throws {
        XCTAssertEqual(try ClusterQueryText.center("-33.8,151.2"), Coordinate(latitude: -33.8, longitude: 151.2))
        XCTAssertThrowsError(try ClusterQueryText.center("91,0")) {
            XCTAssertEqual("\($0)", "center '91,0': latitude 91 is outside -90…90")
        }
        XCTAssertThrowsError(try ClusterQueryText.center("0,1e400")) {
            XCTAssertEqual("\($0)", "center '0,1e400': longitude 1e400 is not a finite number")
        }
        XCTAssertThrowsError(try ClusterQueryText.center("1")) { XCTAssertEqual("\($0)", "center '1' is not LAT,LON") }
    }

    func testViewportsAndZooms() throws {
        XCTAssertTrue(try ClusterQueryText.viewport("390X844") == (390, 844))
        XCTAssertThrowsError(try ClusterQueryText.viewport("0x844")) {
            XCTAssertEqual($0 as? ClusterQueryError, .viewport(text: "0x844"))
        }
        XCTAssertEqual(try ClusterQueryText.zoom("2.5"), 2.5)
        XCTAssertThrowsError(try ClusterQueryText.zoom("1e400")) { XCTAssertEqual("\($0)", "zoom '1e400' is not a number") }
    }
}

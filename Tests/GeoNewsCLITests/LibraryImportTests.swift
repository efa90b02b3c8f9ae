import Foundation
import GeoNews
import XCTest

/// `import GeoNews` alone names every public type the library's answers carry: this file
/// imports no other GeoNews module, so it compiles only while the umbrella re-exports them.
final class LibraryImportTests: XCTestCase {
    func testTheHeadlinesOfAReportAreAJSONValueNamedThroughGeoNewsAlone() throws {
        let headlines: JSONValue = .object(["provider": .string("gdelt"), "articles": .array([])])
        let encoded = try JSONEncoder().encode(headlines)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: encoded), headlines)
        let position: Coordinate = Coordinate(latitude: 48.8566, longitude: 2.3522)
        XCTAssertEqual(position.latitude, 48.8566)
    }
}

import GeoNewsBoundaries
import GeoNewsGeodesy
import XCTest

/// The tables a resolver precomputes change no answer: the server's one resolver, given the
/// measures of a call, answers as a resolver built for those measures alone.
final class ResolverOptionsTests: XCTestCase {
    func testTheServerResolverAnswersEachMeasureAsADedicatedResolver() throws {
        let server = try CountryResolver.load(from: TestData.directory, options: .server)
        let dedicated: [(ResolutionMeasures, CountryResolver)] = try [
            (.singlePosition, TestData.resolver()),
            (.batch, CountryResolver.load(from: TestData.directory, options: .batch)),
            (.batchWithBorderDistance, CountryResolver.load(from: TestData.directory, options: .batchWithBorderDistance)),
        ]
        // A 12° grid, offset from whole degrees: land, sea, borders, both polar regions; the
        // single-position measures search the nearest land at sea, slow in a debug build.
        let grid = stride(from: -84.5, through: 84.5, by: 12).flatMap { lat in
            stride(from: -179.5, through: 179.5, by: 12).map { Coordinate(latitude: lat, longitude: $0) }
        }
        var atSea = 0, measured = 0
        for (measures, resolver) in dedicated {
            XCTAssertEqual(resolver.options.measures, measures)
            for p in grid {
                let expected = resolver.resolve(p)
                XCTAssertEqual(server.resolve(p, measuring: measures), expected, "\(p) with \(measures)")
                XCTAssertEqual(server.measuring(measures).resolve(p), expected, "\(p) with \(measures)")
                if expected.country == nil { atSea += 1 }
                if expected.borderDistanceKm != nil { measured += 1 }
            }
        }
        XCTAssertGreaterThan(atSea, 200, "too few positions at sea to compare the sea search")
        XCTAssertGreaterThan(measured, 100, "too few positions with a border distance")
        // The measures differ where they should: no border distance and no far nearest land
        // in a batch row.
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        XCTAssertNotNil(server.resolve(paris).borderDistanceKm)
        XCTAssertNil(server.resolve(paris, measuring: .batch).borderDistanceKm)
        let pacific = Coordinate(latitude: -30, longitude: -130)
        XCTAssertNotNil(server.resolve(pacific).nearest)
        XCTAssertNil(server.resolve(pacific, measuring: .batch).nearest)
    }
}

import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// Each rule of ``Catalogue/problem()`` broken on purpose in a copy of the committed
/// catalogue, one entry changed, and kept by the catalogue itself.
final class CatalogueInvariantTests: XCTestCase {
    private func committed() throws -> Catalogue { try TestData.resolver().catalogue }

    /// The rule that the committed catalogue breaks once its entry `id` takes the fields given.
    private func brokenRule(
        at id: String, id newID: String? = nil, iso2: String?? = nil, sovereignIso2: String?? = nil, hasNews: Bool? = nil,
        marker: Coordinate? = nil, bbox: BoundingBox? = nil, names: [String: String]? = nil
    ) throws -> CatalogueRule? {
        let catalogue = try committed()
        let countries = catalogue.countries.map { c -> Country in
            guard c.id == id else { return c }
            return Country(
                id: newID ?? c.id, iso2: iso2 ?? c.iso2, iso3: c.iso3, name: c.name, names: names ?? c.names, continent: c.continent,
                sovereign: c.sovereign, sovereignIso2: sovereignIso2 ?? c.sovereignIso2, hasNews: hasNews ?? c.hasNews,
                marker: marker ?? c.marker, bbox: bbox ?? c.bbox)
        }
        XCTAssertTrue(countries.contains { $0.id == (newID ?? id) }, "no entry \(id)")
        return Catalogue(countries: countries, languages: catalogue.languages, source: catalogue.source).problem()?.rule
    }

    func testTheCommittedCatalogueKeepsEveryRule() throws {
        let catalogue = try committed()
        XCTAssertEqual(catalogue.countries.count, 258)
        XCTAssertEqual(catalogue.newsCountries.count, 54)
        XCTAssertNil(catalogue.problem())
        XCTAssertNil(try Catalogue.loadJSON(from: TestData.directory).problem(), "countries.json as well as catalogue.bin")
    }

    func testAnIdOutOfOrderBreaksOrder() throws {
        XCTAssertEqual(try brokenRule(at: "FRA", id: "ZZZ"), .order)
        XCTAssertEqual(try brokenRule(at: "FRA", id: "FIN"), .order, "a repeated id")
    }

    func testALowerCaseCodeBreaksCodes() throws {
        XCTAssertEqual(try brokenRule(at: "FRA", iso2: .some("fr")), .codes)
        XCTAssertEqual(try brokenRule(at: "DEU", iso2: .some("DEU")), .codes)
    }

    func testAnUnknownSovereignBreaksSovereign() throws {
        let reunion = try XCTUnwrap(try committed().country(iso2: "RE"))
        XCTAssertEqual(reunion.sovereignIso2, "FR")
        XCTAssertEqual(try brokenRule(at: reunion.id, sovereignIso2: .some("QQ")), .sovereign)
    }

    func testANewsCountryWithoutACodeBreaksNews() throws {
        XCTAssertEqual(try brokenRule(at: "FRA", iso2: .some(nil)), .news)
    }

    func testAMarkerOutsideItsBoxBreaksMarker() throws {
        XCTAssertEqual(try brokenRule(at: "FRA", marker: Coordinate(latitude: -30, longitude: 2)), .marker)
        XCTAssertEqual(try brokenRule(at: "FRA", bbox: BoundingBox(west: -5, south: 52, east: 10, north: 41)), .marker, "south above north")
        // Across the antimeridian a box's east is below its west: Fiji's marker lies in it.
        let fiji = try XCTUnwrap(try committed().country(iso2: "FJ"))
        XCTAssertNil(try brokenRule(at: fiji.id, bbox: BoundingBox(west: 176, south: -21, east: -178, north: -12)))
    }

    func testAMissingNameBreaksNames() throws {
        let france = try XCTUnwrap(try committed().country(iso2: "FR"))
        var names = france.names
        names["de"] = nil
        XCTAssertEqual(try brokenRule(at: "FRA", names: names), .names)
    }
}

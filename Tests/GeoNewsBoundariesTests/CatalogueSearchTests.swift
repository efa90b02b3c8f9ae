import XCTest

@testable import GeoNewsBoundaries

final class CatalogueSearchTests: XCTestCase {
    func testPrefixesInAnyLanguageAndCodesFindJapan() throws {
        let catalogue = try TestData.resolver().catalogue
        for query in ["jap", "Japon", "JP", "jpn", "日本", "Япо"] {
            XCTAssertEqual(catalogue.search(query).first?.iso2, "JP", query)
        }
    }

    func testAccentsAndCaseAreIgnored() throws {
        let catalogue = try TestData.resolver().catalogue
        XCTAssertEqual(catalogue.search("reunion").first?.iso2, "RE")
        XCTAssertEqual(catalogue.search("ÖSTERR").first?.iso2, "AT")
        XCTAssertTrue(catalogue.search("korea").contains { $0.iso2 == "KR" })
    }

    func testNewsOnlyFiltersAndEmptyListsAll() throws {
        let catalogue = try TestData.resolver().catalogue
        XCTAssertEqual(catalogue.search("", newsOnly: true).count, 54)
        XCTAssertEqual(catalogue.search("").count, catalogue.countries.count)
        XCTAssertFalse(catalogue.search("lux", newsOnly: true).contains { $0.iso2 == "LU" })
        XCTAssertTrue(catalogue.search("zzzz").isEmpty)
    }

    func testLookupByCodePrefersTheISOCountry() throws {
        let catalogue = try TestData.resolver().catalogue
        XCTAssertEqual(catalogue.country(iso2: "fr")?.id, "FRA")
        XCTAssertEqual(catalogue.country(iso2: "SO")?.id, "SOM")
        XCTAssertEqual(catalogue.country(iso2: "RE")?.sovereignIso2, "FR")
        XCTAssertEqual(catalogue.country(iso2: "JP")?.name(in: "fr"), "Japon")
    }
}

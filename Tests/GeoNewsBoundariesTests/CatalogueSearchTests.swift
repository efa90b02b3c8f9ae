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

    /// The folding Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive,
    /// .widthInsensitive])` and trimming gave, now written without Foundation.
    func testFoldingMatchesFoundationsCaseDiacriticAndWidthFolding() {
        let cases: [(String, String)] = [
            ("Côte d’Ivoire", "cote d’ivoire"), ("  Japon\u{3000}", "japon"), ("ＪＡＰＡＮ", "japan"),
            ("Καναδάς", "καναδασ"), ("Straße", "strasse"), ("ﬁji", "fiji"), ("Ærø", "ærø"),
            ("Việt Nam", "viet nam"), ("Россия", "россия"), ("日本", "日本"), (" \t ", ""),
        ]
        for (text, folded) in cases {
            XCTAssertEqual(Catalogue.folded(text), folded, text)
        }
    }

    func testCFormatGivesPrintfDigits() {
        XCTAssertEqual(String(cFormat: "%.1f km", 3.45), "3.5 km")
        XCTAssertEqual(String(cFormat: "%8.3f %9.3f", 48.8566, -2.3522), "  48.857    -2.352")
        XCTAssertEqual(String(cFormat: "%d items in %.3f ms", 42, 1.5), "42 items in 1.500 ms")
        XCTAssertEqual(String(cFormat: "%.4f° ", 48.85661), "48.8566° ")
        XCTAssertEqual(String(cFormat: "%.0f", 1e300).count, 301)
    }
}

import XCTest

@testable import GeoNewsHeadlines

final class GDELTCountryTableTests: XCTestCase {
    private var tableURL: URL { TestSupport.editionTableURL.deletingLastPathComponent().appendingPathComponent("gdelt-countries.json") }

    func testEveryNewsCountryHasItsFIPSCodeAndTheTrapsAreRight() throws {
        let table = try GDELTCountryTable.load(from: tableURL)
        let editions = try GoogleNewsEditionTable.load(from: TestSupport.editionTableURL)
        XCTAssertEqual(Set(table.countries.keys), Set(editions.countries.keys))
        XCTAssertEqual(table.countries.count, 54)
        let expected = [
            "ae": "AE", "ar": "AR", "at": "AU", "au": "AS", "be": "BE", "bg": "BU", "br": "BR", "ca": "CA", "ch": "SZ",
            "cn": "CH", "co": "CO", "cu": "CU", "cz": "EZ", "de": "GM", "eg": "EG", "fr": "FR", "gb": "UK", "gr": "GR",
            "hk": "HK", "hu": "HU", "id": "ID", "ie": "EI", "il": "IS", "in": "IN", "it": "IT", "jp": "JA", "kr": "KS",
            "lt": "LH", "lv": "LG", "ma": "MO", "mx": "MX", "my": "MY", "ng": "NI", "nl": "NL", "no": "NO", "nz": "NZ",
            "ph": "RP", "pl": "PL", "pt": "PO", "ro": "RO", "rs": "RI", "ru": "RS", "sa": "SA", "se": "SW", "sg": "SN",
            "si": "SI", "sk": "LO", "th": "TH", "tr": "TU", "tw": "TW", "ua": "UP", "us": "US", "ve": "VE", "za": "SF",
        ]
        XCTAssertEqual(table.countries.mapValues(\.fips), expected)
    }

    func testLanguagesMapBothWays() throws {
        let table = try GDELTCountryTable.load(from: tableURL)
        XCTAssertEqual(table.countries["be"]?.languages, ["fr", "nl"])
        XCTAssertEqual(table.countries["ch"]?.languages, ["de", "fr"])
        XCTAssertEqual(table.countries["tw"]?.languages, ["zh"])
        XCTAssertEqual(table.languages["de"], "German")
        XCTAssertEqual(table.languages["en"], "English")
        XCTAssertEqual(table.languageCode(named: "French"), "fr")
        XCTAssertEqual(table.languageCode(named: "norwegian"), "no")
        XCTAssertNil(table.languageCode(named: "Klingon"))
        for country in table.countries.values {
            for code in country.languages { XCTAssertNotNil(table.languages[code], "\(country.name): \(code)") }
        }
    }

    func testEveryCategoryButGeneralHasThemes() throws {
        let table = try GDELTCountryTable.load(from: tableURL)
        XCTAssertEqual(Set(table.categoryThemes.keys), Set(HeadlineCategory.allCases.map(\.rawValue)).subtracting(["general"]))
        XCTAssertEqual(table.categoryThemes["health"], ["GENERAL_HEALTH", "MEDICAL"])
    }

    func testADuplicatedFIPSCodeIsRejectedNamingBothCountries() throws {
        let file = TestSupport.scratchDirectory().appendingPathComponent("gdelt-countries.json")
        try Data(
            #"{"countries": {"at": {"fips": "AU", "name": "Austria", "languages": ["de"]}, "au": {"fips": "AU", "name": "Australia", "languages": ["en"]}}, "languages": {"de": "German", "en": "English"}, "categoryThemes": {}}"#
                .utf8
        ).write(to: file)
        XCTAssertThrowsError(try GDELTCountryTable.load(from: file)) { error in
            XCTAssertEqual(error as? HeadlineError, .gdeltTable(path: file.path, detail: "FIPS code AU is given to both at and au"))
        }
    }
}

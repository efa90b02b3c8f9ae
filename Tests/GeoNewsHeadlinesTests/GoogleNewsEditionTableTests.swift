import XCTest

@testable import GeoNewsHeadlines

final class GoogleNewsEditionTableTests: XCTestCase {
    static let newsCountries = """
        ae ar at au be bg br ca ch cn co cu cz de eg fr gb gr hk hu id ie il in it jp kr lt lv ma mx my ng nl no nz \
        ph pl pt ro rs ru sa se sg si sk th tr tw ua us ve za
        """.split(separator: " ").map(String.init)

    func testTableCoversExactlyTheFiftyFourNewsCountries() throws {
        let table = try GoogleNewsEditionTable.load(from: TestSupport.editionTableURL)
        XCTAssertEqual(Self.newsCountries.count, 54)
        XCTAssertEqual(Set(table.countries.keys), Set(Self.newsCountries))
        XCTAssertTrue(table.countries.values.allSatisfy(\.native), "every news country has an edition of its own")
    }

    func testWellKnownEditionsUseGooglesCodes() throws {
        let table = try GoogleNewsEditionTable.load(from: TestSupport.editionTableURL)
        let expected: [String: (String, String)] = [
            "ae": ("ar", "AE:ar"), "in": ("en-IN", "IN:en"), "br": ("pt-BR", "BR:pt-419"), "cn": ("zh-CN", "CN:zh-Hans"),
            "tw": ("zh-TW", "TW:zh-Hant"), "hk": ("zh-HK", "HK:zh-Hant"), "jp": ("ja", "JP:ja"), "us": ("en-US", "US:en"),
            "pt": ("pt-PT", "PT:pt-150"), "cu": ("es-419", "CU:es-419"), "ma": ("fr", "MA:fr"), "fr": ("fr", "FR:fr"),
        ]
        for (country, (hl, ceid)) in expected {
            let edition = try XCTUnwrap(table.edition(country: country), country)
            XCTAssertEqual(edition.hl, hl, country)
            XCTAssertEqual(edition.ceid, ceid, country)
            XCTAssertEqual(edition.gl, country.uppercased())
        }
    }

    func testLanguagePicksAmongACountrysEditions() throws {
        let table = try GoogleNewsEditionTable.load(from: TestSupport.editionTableURL)
        XCTAssertEqual(table.edition(country: "ca", language: "fr")?.ceid, "CA:fr")
        XCTAssertEqual(table.edition(country: "CA")?.ceid, "CA:en")
        XCTAssertEqual(table.edition(country: "in", language: "hi")?.hl, "hi")
        XCTAssertEqual(table.edition(country: "jp", language: "fr")?.ceid, "JP:ja", "no French edition: the default")
        XCTAssertNil(table.edition(country: "zz"))
        XCTAssertEqual(table.searchEdition(language: "pt")?.ceid, "BR:pt-419")
        XCTAssertNil(table.searchEdition(language: "ud"))
    }

    func testBrokenTableNamesTheFaultyCountry() throws {
        let folder = TestSupport.scratchDirectory()
        let url = folder.appendingPathComponent("google-news-editions.json")
        try Data(
            #"{"searchEditions": {}, "countries": {"fr": {"native": true, "editions": [{"hl": "fr", "gl": "FR", "ceid": "BE:fr"}]}}}"#.utf8
        ).write(to: url)
        XCTAssertThrowsError(try GoogleNewsEditionTable.load(from: url)) { error in
            XCTAssertEqual(error as? HeadlineError, .editionTable(path: url.path, detail: "country fr: edition BE:fr does not match gl=FR"))
        }
        try Data(#"{"countries": {}}"#.utf8).write(to: url)
        XCTAssertThrowsError(try GoogleNewsEditionTable.load(from: url)) { error in
            XCTAssertEqual(error as? HeadlineError, .editionTable(path: url.path, detail: "field searchEditions: missing"))
        }
    }
}

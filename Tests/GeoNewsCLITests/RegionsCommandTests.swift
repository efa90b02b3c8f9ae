import Foundation
import XCTest

/// `geonews regions` and the regions that `geonews countries --search` lists after the
/// countries, run as the built executable.
final class RegionsCommandTests: XCTestCase {
    private func json(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    func testACountrysRegionsAsLinesAndAsJSON() throws {
        let lines = try CommandRunner.geonews(["regions", "--country", "fr"])
        XCTAssertEqual(lines.status, 0, lines.stderr)
        let rows = lines.stdout.split(separator: "\n")
        XCTAssertEqual(rows.count, 13)
        XCTAssertTrue(rows.contains("FR-ARA  FR.84        Auvergne-Rhône-Alpes"), lines.stdout)

        let array = try json(try CommandRunner.geonews(["regions", "--country", "FR", "--json", "--lang", "it"]).stdout)
        XCTAssertEqual(array.count, 13)
        let ara = try XCTUnwrap(array.first { $0["geonamesAdmin1"] as? String == "FR.84" })
        XCTAssertEqual(ara["name"] as? String, "Alvernia-Rodano-Alpi")
        XCTAssertEqual(ara["iso3166_2"] as? String, "FR-ARA")
        XCTAssertEqual(ara["country"] as? String, "FR")
        // A region without an ISO 3166-2 code says null rather than leaving the key out.
        let guyane = try json(try CommandRunner.geonews(["regions", "--country", "gf", "--json"]).stdout)
        XCTAssertEqual(guyane.count, 1)
        XCTAssertTrue(guyane.first?["iso3166_2"] is NSNull, "\(guyane)")
    }

    func testSearchByNameInAnyLanguageOrByCode() throws {
        for query in ["Bayern", "bavi", "DE-BY"] {
            let r = try CommandRunner.geonews(["regions", "--search", query, "--json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try json(r.stdout).first?["geonamesAdmin1"] as? String, "DE.02", query)
        }
        let short = try CommandRunner.geonews(["regions", "--country", "de", "--search", "by", "--lang", "de"])
        XCTAssertEqual(short.stdout, "DE-BY   DE.02        Bayern\n")
        let none = try CommandRunner.geonews(["regions", "--country", "fr", "--search", "Bayern"])
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(none.stderr, "geonews: no region of France matches 'Bayern'\n")
    }

    func testCountrySearchListsMatchingRegionsAfterTheCountries() throws {
        let r = try CommandRunner.geonews(["countries", "--search", "Bayern"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Regions:\nDE-BY   DE.02        Bavaria, Germany\n")
        let both = try CommandRunner.geonews(["countries", "--search", "luxem"])
        XCTAssertTrue(both.stdout.hasPrefix("LU LUX   Luxembourg\n"), both.stdout)
        XCTAssertTrue(both.stdout.hasSuffix("Regions:\nLU-LU   LU.LU        Luxembourg, Luxembourg\n"), both.stdout)
        let neither = try CommandRunner.geonews(["countries", "--search", "zzzz"])
        XCTAssertEqual(neither.stderr, "geonews: no country or region matches 'zzzz'\n")
    }

    func testBadArgumentsExit64NamingTheValue() throws {
        let country = try CommandRunner.geonews(["regions", "--country", "zz"])
        XCTAssertEqual(country.status, 64)
        XCTAssertTrue(country.stderr.contains("country 'zz'"), country.stderr)
        XCTAssertEqual(country.stdout, "")
        let lang = try CommandRunner.geonews(["regions", "--country", "fr", "--lang", "xx"])
        XCTAssertEqual(lang.status, 64)
        XCTAssertTrue(lang.stderr.contains("language 'xx'"), lang.stderr)
        // A huge search text is refused by its length, not echoed back; a hostile one that fits
        // is only text: no match, no crash.
        for command in ["regions", "countries"] {
            let long = try CommandRunner.geonews([command, "--search", String(repeating: "ß\u{301}", count: 20_000)])
            XCTAssertEqual(long.status, 64, command)
            XCTAssertEqual(long.stderr, "geonews: --search text is 20000 characters long; at most 100 are taken\n", command)
        }
        let odd = try CommandRunner.geonews(["regions", "--search", "\u{202E}%s'\"" + String(repeating: "\u{301}", count: 90)])
        XCTAssertEqual(odd.status, 0)
        XCTAssertEqual(odd.stdout, "")
    }
}

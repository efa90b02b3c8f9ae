import XCTest

final class CountryRouteTests: XCTestCase {
    func testSearchFindsJapanByPrefixInAnyLanguage() async throws {
        let server = try ServerProcess()
        for query in ["jap", "Japon", "jp"] {
            let found = try await server.get("/v1/countries?search=\(query)").array()
            XCTAssertTrue(found.contains { $0["iso2"] as? String == "JP" }, "\(query): \(found)")
        }
    }

    func testNewsOnlyListsThe54NewsCountries() async throws {
        let server = try ServerProcess()
        let news = try await server.get("/v1/countries?newsOnly=true").array()
        XCTAssertEqual(news.count, 54)
        XCTAssertTrue(news.allSatisfy { $0["news"] as? Bool == true })
    }

    func testOneCountryHasNamesCodesMarkerAndBox() async throws {
        let server = try ServerProcess()
        let france = try await server.get("/v1/countries/fr?lang=de").object()
        XCTAssertEqual(france["iso2"] as? String, "FR")
        XCTAssertEqual(france["iso3"] as? String, "FRA")
        XCTAssertEqual(france["name"] as? String, "Frankreich")
        XCTAssertEqual(france["continent"] as? String, "Europe")
        let marker = try XCTUnwrap(france["marker"] as? [String: Double])
        XCTAssertEqual(marker["lat"]!, 46.6, accuracy: 1.5)
        let bbox = try XCTUnwrap(france["bbox"] as? [Double])
        XCTAssertEqual(bbox.count, 4)
        XCTAssertLessThan(bbox[0], -4)  // Brittany
        XCTAssertGreaterThan(bbox[2], 8)  // Alsace and Corsica
    }

    func testUnknownCodeIsProblem404NamingIt() async throws {
        let server = try ServerProcess()
        try assertProblem(try await server.get("/v1/countries/qq"), 404, mentions: ["qq"])
    }

    func testUnknownLanguageIsProblem400NamingTheParameter() async throws {
        let server = try ServerProcess()
        try assertProblem(try await server.get("/v1/countries?lang=xx"), 400, mentions: ["lang", "xx"])
        try assertProblem(try await server.get("/v1/countries?newsOnly=maybe"), 400, mentions: ["newsOnly", "maybe"])
    }
}

import Foundation
import XCTest

/// `GET /v1/favourites` in pages, and favourites kept whole or refused.
final class FavouritePagingTests: XCTestCase {
    func testPagesFollowTheirNextLinksToEveryFavouriteOnce() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        for n in 1...7 {
            let saved = try await server.send(
                "POST", "/v1/favourites", json: ["url": "https://x.org/\(n)", "title": "Story \(n)"], token: token)
            XCTAssertEqual(saved.status, 201, saved.text)
        }
        var titles: [String] = []
        var next: String? = "/v1/favourites?limit=3"
        var pages = 0
        while let path = next {
            let page = try await server.get(path, token: token)
            XCTAssertEqual(page.status, 200, page.text)
            let items = try page.array()
            XCTAssertLessThanOrEqual(items.count, 3)
            titles += items.compactMap { $0["title"] as? String }
            next = page.header("Link").flatMap { link in
                link.hasSuffix(#"rel="next""#) ? link.split(separator: ">").first.map { String($0.dropFirst()) } : nil
            }
            pages += 1
            XCTAssertLessThan(pages, 10)
        }
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(titles, (1...7).reversed().map { "Story \($0)" })
        let all = try await server.get("/v1/favourites", token: token)
        XCTAssertEqual(try all.array().count, 7)
        XCTAssertNil(all.header("Link"))
    }

    func testBadPagingValuesAre400NamingThem() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        for (query, name) in [
            ("limit=0", "limit"), ("limit=501", "limit"), ("limit=abc", "limit"),
            ("limit=99999999999999999999999", "limit"), ("before=-1", "before"),
            ("before=0", "before"), ("before=1e3", "before"), ("before=99999999999999999999", "before"),
        ] {
            try assertProblem(try await server.get("/v1/favourites?\(query)", token: token), 400, mentions: [name])
        }
    }

    func testATextWithANulIsRefusedNamingItsField() async throws {
        let server = try ServerProcess()
        let token = try await server.newUser()
        let refused = try await server.send(
            "POST", "/v1/favourites", json: ["url": "https://x.org/1", "title": "before\u{0}after"], token: token)
        try assertProblem(refused, 400, mentions: ["title", "NUL"])
        let source = try await server.send(
            "POST", "/v1/favourites", json: ["url": "https://x.org/1", "title": "t", "source": "a\u{0}"], token: token)
        try assertProblem(source, 400, mentions: ["source"])
        do { let got = try await server.get("/v1/favourites", token: token).array().count; XCTAssertEqual(got, 0) }
        // Other characters, beyond the BMP included, come back whole.
        let title = "Grüße \u{1}\u{7f} 🗺️ \u{2028} end"
        let saved = try await server.send("POST", "/v1/favourites", json: ["url": "https://x.org/2", "title": title], token: token)
        XCTAssertEqual(saved.status, 201, saved.text)
        do { let got = try await server.get("/v1/favourites", token: token).array().first?["title"] as? String; XCTAssertEqual(got, title) }
    }
}

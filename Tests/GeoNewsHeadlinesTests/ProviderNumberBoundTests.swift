import Foundation
import XCTest

@testable import GeoNewsHeadlines

/// Numbers a provider sends are bounded where they are read: none can trap a conversion later.
final class ProviderNumberBoundTests: XCTestCase {
    private func response(retryAfter: String) -> HTTPResponse {
        HTTPResponse(status: 429, headers: ["retry-after": retryAfter], body: Data(), url: URL(fileURLWithPath: "/"))
    }

    func testRetryAfterIsFiniteAndAtMostADay() {
        XCTAssertEqual(response(retryAfter: "120").retryAfter(), 120)
        XCTAssertEqual(response(retryAfter: "1e300").retryAfter(), 86_400)
        XCTAssertEqual(response(retryAfter: "9223372036854775808").retryAfter(), 86_400)
        XCTAssertNil(response(retryAfter: "inf").retryAfter())
        XCTAssertNil(response(retryAfter: "nan").retryAfter())
        XCTAssertNil(response(retryAfter: "-5").retryAfter())
        XCTAssertEqual(response(retryAfter: "Fri, 01 Jan 9999 00:00:00 GMT").retryAfter(), 86_400)
        // The message of a 429 prints the wait; it used to convert 1e300 to Int and trap.
        let error = HeadlineError.rateLimited(.gdelt, retryAfter: response(retryAfter: "1e300").retryAfter(), message: nil)
        XCTAssertTrue(error.description.contains("retry after 86400 s"), error.description)
        XCTAssertTrue(HeadlineError.rateLimited(.gdelt, retryAfter: 1e300, message: nil).description.contains("retry after"))
    }

    func testAYearBeyondFourDigitsIsNoDate() {
        XCTAssertNil(WireTimestamp.rfc2822("Wed, 01 May 9223372036854775807 09:30:00 GMT"))
        XCTAssertNil(WireTimestamp.rfc2822("01 May -9223372036854775807 09:30 +0200"))
        XCTAssertNotNil(WireTimestamp.rfc2822("Wed, 01 May 2024 09:30:00 GMT"))
    }

    /// A cache file whose time is damaged is a miss: its age in whole seconds would trap.
    func testACachedAnswerWithADamagedTimeIsAMiss() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ResponseCache(directory: directory)
        let url = URL(string: "https://example.org/a")!
        cache.store(Data("{}".utf8), url: url, for: "gdelt GET a", now: Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(cache.entry(for: "gdelt GET a")?.storedAt, Date(timeIntervalSince1970: 1_700_000_000))
        for storedAt in ["-1e300", "1e300"] {
            let header = #"{"identity":"gdelt GET a","storedAt":\#(storedAt),"url":"https://example.org/a"}"#
            try Data((header + "\n{}").utf8).write(to: cache.fileURL(for: "gdelt GET a"))
            XCTAssertNil(cache.entry(for: "gdelt GET a"), storedAt)
        }
    }
}

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
        XCTAssertNil(Timestamp.rfc2822("Wed, 01 May 9223372036854775807 09:30:00 GMT"))
        XCTAssertNil(Timestamp.rfc2822("01 May -9223372036854775807 09:30 +0200"))
        XCTAssertNotNil(Timestamp.rfc2822("Wed, 01 May 2024 09:30:00 GMT"))
    }
}

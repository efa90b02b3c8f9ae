import Foundation
import XCTest

@testable import GeoNewsServer

/// Writes are limited per client address; reads are not.
final class WriteRateLimitTests: XCTestCase {
    func testWritesPastTheBurstAre429WithRetryAfterAndReadsGoOn() async throws {
        let server = try ServerProcess(arguments: ["--write-rate", "0.2", "--write-burst", "3"])
        var statuses: [Int] = []
        for _ in 0..<3 { statuses.append(try await server.send("POST", "/v1/users").status) }
        XCTAssertEqual(statuses, [201, 201, 201])
        let refused = try await server.send("POST", "/v1/users")
        try assertProblem(refused, 429, mentions: ["writes"])
        let wait = try XCTUnwrap(refused.header("Retry-After").flatMap { Int($0) }, refused.text)
        XCTAssertTrue((1...5).contains(wait), "Retry-After \(wait)")
        // Reads, and the batch resolution that writes nothing, are not counted.
        do { let got = try await server.get("/v1/resolve?lat=48.8566&lon=2.3522").status; XCTAssertEqual(got, 200) }
        let batch = try await server.send("POST", "/v1/resolve", body: Data("lat,lon\n48.8566,2.3522\n".utf8), contentType: "text/csv")
        XCTAssertEqual(batch.status, 200, batch.text)
    }

    func testABucketRefillsAtItsRate() {
        let buckets = WriteBuckets(rate: 2, burst: 2, trackedAddresses: 10)
        let start = ContinuousClock.now
        XCTAssertNil(buckets.take("a", now: start))
        XCTAssertNil(buckets.take("a", now: start))
        XCTAssertEqual(buckets.take("a", now: start), 1)
        XCTAssertNil(buckets.take("b", now: start), "another address has its own bucket")
        XCTAssertNil(buckets.take("a", now: start + .milliseconds(600)), "half a second gives one write back")
        XCTAssertEqual(buckets.take("a", now: start + .milliseconds(700)), 1)
    }

    func testTheNumberOfTrackedAddressesIsBounded() {
        let buckets = WriteBuckets(rate: 1, burst: 5, trackedAddresses: 100)
        let start = ContinuousClock.now
        // An address that keeps writing is limited; a flood of new addresses does not reset it.
        for _ in 0..<5 { XCTAssertNil(buckets.take("busy", now: start)) }
        for i in 0..<10_000 { _ = buckets.take("10.0.\(i / 256).\(i % 256)", now: start) }
        XCTAssertLessThanOrEqual(buckets.count, 100)
        XCTAssertNotNil(buckets.take("busy", now: start), "the limited address was forgotten")
        // Once quiet long enough to refill, buckets make room for new addresses.
        XCTAssertNil(buckets.take("late", now: start + .seconds(10)))
        XCTAssertLessThanOrEqual(buckets.count, 100)
    }
}

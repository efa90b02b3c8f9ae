import Foundation
import GeoNewsBoundaries
import GeoNewsTimeZones
import XCTest

/// How long a resolution answer may be cached: to the next whole or half hour UTC, because
/// that is where every offset change falls.
final class ReportLifetimeTests: XCTestCase {
    private func instant(_ iso: String) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: iso), iso)
    }

    func testTheLifetimeRunsToTheNextWholeOrHalfHour() throws {
        XCTAssertEqual(ResolutionReport.secondsValid(after: try instant("2026-11-23T11:00:00Z")), 1800)
        XCTAssertEqual(ResolutionReport.secondsValid(after: try instant("2026-11-23T11:00:01Z")), 1799)
        XCTAssertEqual(ResolutionReport.secondsValid(after: try instant("2026-11-23T11:29:59Z")), 1)
        XCTAssertEqual(ResolutionReport.secondsValid(after: try instant("2026-11-23T11:30:00Z")), 1800)
        XCTAssertEqual(ResolutionReport.secondsValid(after: try instant("2026-11-23T11:47:30Z")), 750)
        // Newfoundland moves its clocks at 05:30 UTC: an answer at 05:28 lives two minutes.
        XCTAssertEqual(ResolutionReport.secondsValid(after: try instant("2027-03-14T05:28:00Z")), 120)
        XCTAssertEqual(ResolutionReport.secondsValid(after: Date(timeIntervalSince1970: -1)), 1)
    }

    /// The premise, checked against the shipped rules: every change of every zone's offset in
    /// 2026…2030 happens exactly on a whole or half hour UTC.
    func testEveryOffsetChangeFallsOnAWholeOrHalfHourUTC() throws {
        let file = try ZoneRulesFile(directory: TestData.directory)
        let start: Int64 = 1_767_225_600, end: Int64 = 1_924_992_000  // 2026-01-01 … 2031-01-01
        var changes = 0
        for zone in 0..<file.count {
            let rules = try file.rules(ofZone: zone)
            var day = start
            while day < end {
                let next = day + 86_400
                if rules.offset(at: day) != rules.offset(at: next) {
                    // The last second with the old offset, by bisection.
                    var before = day, after = next
                    while after - before > 1 {
                        let mid = (before + after) / 2
                        if rules.offset(at: mid) == rules.offset(at: day) { before = mid } else { after = mid }
                    }
                    XCTAssertEqual(after % 1800, 0, "zone \(zone) changes at \(Date(timeIntervalSince1970: TimeInterval(after)))")
                    changes += 1
                }
                day = next
            }
        }
        XCTAssertGreaterThan(changes, 500, "about 140 zones keep daylight saving time, two changes a year")
    }
}

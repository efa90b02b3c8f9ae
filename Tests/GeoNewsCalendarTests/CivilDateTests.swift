import Foundation
import GeoNewsCalendar
import XCTest

final class CivilDateTests: XCTestCase {
    private let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    func testKnownDaysFromTheEpoch() {
        XCTAssertEqual(CivilDate.days(year: 1970, month: 1, day: 1), 0)
        XCTAssertEqual(CivilDate.days(year: 1969, month: 12, day: 31), -1)
        XCTAssertEqual(CivilDate.days(year: 2000, month: 3, day: 1), 11_017)
        XCTAssertEqual(CivilDate.days(year: 2024, month: 2, day: 29), 19_782)
        XCTAssertEqual(CivilDate.days(year: 1, month: 1, day: 1), -719_162)
        XCTAssertEqual(CivilDate.days(year: 9999, month: 12, day: 31), 2_932_896)
    }

    func testLeapYearsFollowTheGregorianRule() {
        XCTAssertTrue(CivilDate.isLeap(2000))
        XCTAssertTrue(CivilDate.isLeap(2024))
        XCTAssertFalse(CivilDate.isLeap(1900))
        XCTAssertFalse(CivilDate.isLeap(2100))
        XCTAssertFalse(CivilDate.isLeap(2023))
        XCTAssertTrue(CivilDate.isLeap(-4), "the proleptic calendar has a year 0 and leap years before it")
    }

    func testDateOfDayInvertsDaysOverTenThousandYears() {
        var day = CivilDate.days(year: -4000, month: 1, day: 1)
        let last = CivilDate.days(year: 6000, month: 12, day: 31)
        var previous = CivilDate.date(ofDay: day - 1)
        while day <= last {
            let d = CivilDate.date(ofDay: day)
            XCTAssertEqual(CivilDate.days(year: d.year, month: d.month, day: d.day), day)
            // Consecutive days are consecutive dates: the day, the month or the year steps by one.
            let next = d.day == previous.day + 1 && d.month == previous.month && d.year == previous.year
            let newMonth =
                d.day == 1
                && (d.month == previous.month + 1 && d.year == previous.year
                    || d.month == 1 && previous.month == 12 && d.year == previous.year + 1)
            if !(next || newMonth) { return XCTFail("day \(day): \(previous) then \(d)") }
            XCTAssertEqual(CivilDate.year(ofDay: day), d.year)
            previous = d
            day += 1
        }
    }

    func testAgreesWithFoundationsGregorianCalendar() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // From 1587 on: Foundation's Gregorian calendar is Julian before October 1582.
            let day = Int(state >> 40) % 1_000_000 - 140_000
            let date = Date(timeIntervalSince1970: Double(day) * 86_400)
            let parts = utc.dateComponents([.year, .month, .day], from: date)
            let d = CivilDate.date(ofDay: day)
            XCTAssertEqual([d.year, d.month, d.day], [parts.year, parts.month, parts.day].compactMap { $0 }, "day \(day)")
        }
    }
}

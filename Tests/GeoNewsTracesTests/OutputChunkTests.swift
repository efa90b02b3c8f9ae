import XCTest

@testable import GeoNewsTraces

final class OutputChunkTests: XCTestCase {
    /// Runs up to 32 bytes are copied by overlapping word moves, longer ones by memmove: every
    /// length on both sides of each word size lands whole and in order, after whatever came before.
    func testAppendedRunsOfEveryShortLengthArriveWholeAndInOrder() {
        let source = (0..<48).map { UInt8(65 + $0) }
        let out = OutputChunk(capacity: 64)
        var expected: [UInt8] = []
        for n in 0...40 {
            source.withUnsafeBufferPointer { out.append($0.baseAddress!, count: n) }
            out.append(UInt8(ascii: "|"))
            expected += source[0..<n] + [UInt8(ascii: "|")]
        }
        XCTAssertEqual(Array(out.bytes), expected)
        XCTAssertEqual(String(decoding: out.bytes.prefix(8), as: UTF8.self), "|A|AB|AB")
    }

    /// Kilometres come out rounded half away from zero to three decimals, as `rounded()`
    /// rounds the metres: around every half metre, at zero from both sides, and far out.
    func testKilometresRoundTheMetresHalfAwayFromZero() {
        func expected(_ value: Double) -> String {
            let milli = value.isFinite ? (value * 1000).rounded() : 0
            guard milli.magnitude < 9.0e15 else { return String(value) }
            let m = Int(milli)
            let whole = m.magnitude / 1000, fraction = m.magnitude % 1000
            let digits = String(fraction)
            return (m < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        var values: [Double] = [
            0, -0.0, 0.0004, 0.0005, -0.0005, 0.0015, 1.2345, 2.5e-4, 0.49999999999999994 / 1000, 12.3455, 999.9995,
            20_037.508, 3071.744, 1e12, 8.9e12, 9e12, 1e300, -1e300, .nan, .infinity, -.infinity, .leastNonzeroMagnitude,
        ]
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let metres = Double(state >> 40) / 2  // whole and half metres up to 8,388 km
            values.append(metres / 1000)
            values.append(metres / 1000 + 1e-9)
            values.append(metres.nextDown / 1000)
        }
        for v in values {
            let out = OutputChunk(capacity: 64)
            out.appendKilometres(v)
            XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), expected(v), "\(v)")
        }
    }
}

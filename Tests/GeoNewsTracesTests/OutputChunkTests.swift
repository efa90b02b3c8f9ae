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
}

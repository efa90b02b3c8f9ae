import XCTest

@testable import GeoNewsBoundaries

/// Hostile packs: every count read from a pack is bounded where it is read, so none of these
/// allocates beyond the declared file, loops, or crashes; each is a `corrupt` error.
final class AreaIndexPackHostileTests: XCTestCase {
    /// A pack of the given raw streams for a file of `plain` bytes around `leafWords` words.
    /// Every literal's sides code is 0 (both coordinates given as differences) unless `sides`.
    private func pack(
        heads: [UInt8], ops: [UInt8] = [], flags: [UInt8] = [], literals: Int = 0, rings: [UInt8] = [],
        sides: [UInt8]? = nil,
        leafWords: UInt64, plain: [UInt8] = [UInt8](repeating: 0, count: 128),
        edit: (inout AreaIndexPack.Header) -> Void = { _ in }
    ) -> [UInt8] {
        let lit = [UInt8](repeating: 0, count: literals)
        let raw = [plain, heads, ops, flags, lit, lit, lit, lit, rings, sides ?? lit]
        let packed = raw.map(AreaIndexPack.deflate)
        var header = AreaIndexPack.Header(
            unpackedBytes: UInt64(plain.count) + 2 * leafWords, checksum: 0, leavesOffset: 128,
            leavesBytes: 2 * leafWords,
            streams: zip(packed, raw).map { (UInt64($0.count), UInt64($1.count)) })
        edit(&header)
        return header.bytes + packed.joined()
    }

    private func assertCorrupt(_ pack: [UInt8], _ expected: String, line: UInt = #line) {
        XCTAssertThrowsError(try pack.withUnsafeBytes { try AreaIndexPack.decode(pack: $0, path: "hostile.pack") }, line: line) { error in
            guard case DataError.corrupt(_, let reason) = error else { return XCTFail("\(error)", line: line) }
            XCTAssertTrue(reason.contains(expected), reason, line: line)
        }
    }

    func testHeaderCountsBeyondThePackOrTheLimitAreRefused() {
        assertCorrupt(pack(heads: [0], leafWords: 1) { $0.streams[1].packed = .max }, "stream 1 sizes out of range")
        assertCorrupt(pack(heads: [0], leafWords: 1) { $0.streams[2].inflated = 1 << 40 }, "stream 2 sizes out of range")
        assertCorrupt(pack(heads: [0], leafWords: 1) { $0.unpackedBytes = 1 << 50 }, "sizes out of range")
        assertCorrupt(pack(heads: [0], leafWords: 1) { $0.leavesBytes = 3 }, "sizes out of range")
        assertCorrupt(pack(heads: [0], leafWords: 1) { $0.leavesOffset = 1 << 33 }, "sizes out of range")
        // A stream declared to inflate to far more than zlib can make of its bytes.
        assertCorrupt(pack(heads: [0], leafWords: 1) { $0.streams[3].inflated = 1 << 30 }, "stream 3 sizes out of range")
    }

    func testAGroupLargerThanTheLeavesSectionIsRefused() {
        // One leaf of one group claiming 65,535 vertices in a section of 10 words.
        let heads: [UInt8] = [1, 0, 1, 0xFF, 0xFF, 0x03]
        assertCorrupt(pack(heads: heads, leafWords: 10), "overruns the leaves section")
    }

    func testACountAboveItsWordIsRefused() {
        // A region of 2^20 cannot be a 16-bit word.
        assertCorrupt(pack(heads: [1, 0x80, 0x80, 0x40, 1, 1], leafWords: 10), "above 65535")
        assertCorrupt(pack(heads: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], leafWords: 10), "longer than 5 bytes")
    }

    func testACopyFromOutsideTheLeafIsRefused() {
        // One group of 4 vertices and no rings: 1 literal, then a copy from 1,000 back.
        let heads: [UInt8] = [1, 0, 0, 4]
        let ops: [UInt8] = [1, 0xE8, 0x07, 4]
        assertCorrupt(pack(heads: heads, ops: ops, flags: [0], literals: 1, leafWords: 1 + 3 + 8), "outside the leaf")
        // A copy longer than the vertices left.
        assertCorrupt(pack(heads: heads, ops: [1, 1, 0x7E], flags: [0], literals: 1, leafWords: 1 + 3 + 8), "outside the leaf")
    }

    func testMoreLiteralsThanVerticesAreRefused() {
        assertCorrupt(
            pack(heads: [1, 0, 0, 2], ops: [9], flags: [0], literals: 9, leafWords: 1 + 3 + 4), "9 literal vertices where 2 are left")
    }

    func testASidesCodeBeyondEightIsRefused() {
        // One group of one literal vertex whose sides code names no pair of sides.
        assertCorrupt(pack(heads: [1, 0, 0, 1], ops: [1], flags: [0], sides: [9], leafWords: 1 + 3 + 2), "sides code 9, not 0–8")
        // The control: code 8 (x and y at 16,384) needs no difference and decodes.
        let good = pack(heads: [1, 0, 0, 1], ops: [1], flags: [0], sides: [8], leafWords: 1 + 3 + 2)
        let out = try? good.withUnsafeBytes { p -> [UInt8] in
            let header = try AreaIndexPack.Header(Array(p.prefix(AreaIndexPack.fullHeaderSize)), packBytes: UInt64(p.count), path: "h")
            var out: [UInt8] = []
            _ = try AreaIndexPack.decode(source: .memory(p), header: header, path: "h") { (b) throws(DataError) in out += b }
            return out
        }
        XCTAssertEqual(out.map { Array($0.suffix(4)) }, [0x00, 0x40, 0x00, 0x40])
    }

    func testStreamsShorterThanDeclaredAreRefused() {
        // The leaves section declares 1,000 words but the heads stream gives one empty leaf.
        assertCorrupt(pack(heads: [0], leafWords: 1000), "pack stream heads: ends early")
    }

    func testAStreamLongerThanItsUseIsRefused() {
        assertCorrupt(pack(heads: [0, 0, 0], leafWords: 1), "pack stream heads: bytes left unread")
    }

    func testAWellFormedHandMadePackDecodes() throws {
        // The control: the same builder makes a pack that decodes (one empty leaf).
        let good = pack(heads: [0], leafWords: 1)
        let bytes = try good.withUnsafeBytes { p -> [UInt8] in
            let header = try AreaIndexPack.Header(Array(p.prefix(AreaIndexPack.fullHeaderSize)), packBytes: UInt64(p.count), path: "h")
            var out: [UInt8] = []
            _ = try AreaIndexPack.decode(source: .memory(p), header: header, path: "h") { (b) throws(DataError) in out += b }
            return out
        }
        XCTAssertEqual(bytes, [UInt8](repeating: 0, count: 128) + [0, 0])
    }
}

import GeoNewsBoundaryBuilding
import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

/// Hostile packs: every count read from a pack is bounded where it is read, so none of these
/// allocates beyond the declared file, loops, or crashes; each is a `corrupt` error.
final class AreaIndexPackHostileTests: XCTestCase {
    /// The root grid's bytes: every root cell sea.
    private static let rootBytes = 4 * CountryIndexFormat.rootColumns * CountryIndexFormat.rootRows

    /// The 128-byte header of an area index whose root grid, `nodeCount` nodes and
    /// `leafWords` leaf words follow it one after another.
    private static func indexHeader(nodeCount: Int = 0, leafWords: UInt64) -> [UInt8] {
        var h = AreaIndexFormat.magic + [UInt8](repeating: 0, count: AreaIndexFormat.headerSize - 8)
        func put<T: FixedWidthInteger>(_ v: T, at offset: Int) {
            withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { h[offset + i] = b } }
        }
        let root = UInt64(AreaIndexFormat.headerSize), nodes = root + UInt64(rootBytes)
        put(root, at: 48); put(nodes, at: 56); put(nodes + 4 * UInt64(nodeCount), at: 64)
        put(UInt32(rootBytes / 4), at: 80); put(UInt32(nodeCount), at: 84); put(UInt32(leafWords), at: 88)
        return h
    }

    /// A tree stream of an all-sea root grid.
    private static let seaTree = [UInt8](repeating: 0, count: 2 * rootBytes / 4)

    /// A pack of the given raw streams for an index of an all-sea root grid (unless `tree`) and
    /// `leafWords` leaf words. Every literal's sides code is 0 (both coordinates given as
    /// differences, `literals` zero bytes in each of their four streams) unless `sides`.
    private func pack(
        heads: [UInt8], ops: [UInt8] = [], flags: [UInt8] = [], literals: Int = 0, rings: [UInt8] = [],
        coordinates: [[UInt8]]? = nil, sides: [UInt8]? = nil, across: [UInt8] = [], tree: [UInt8] = seaTree, nodeCount: Int = 0,
        leafWords: UInt64, plain: [UInt8]? = nil,
        edit: (inout AreaIndexPack.Header) -> Void = { _ in }
    ) -> [UInt8] {
        let lit = [UInt8](repeating: 0, count: literals)
        let plain = plain ?? Self.indexHeader(nodeCount: nodeCount, leafWords: leafWords)
        let raw = [plain, tree, heads, ops, flags] + (coordinates ?? [lit, lit, lit, lit]) + [rings, sides ?? lit, across]
        let packed = raw.map(AreaIndexPack.deflate)
        let leavesOffset = UInt64(AreaIndexFormat.headerSize + Self.rootBytes + 4 * nodeCount)
        var header = AreaIndexPack.Header(
            unpackedBytes: UInt64(plain.count) + UInt64(Self.rootBytes + 4 * nodeCount) + 2 * leafWords, checksum: 0,
            leavesOffset: leavesOffset, leavesBytes: 2 * leafWords,
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
        XCTAssertEqual(bytes, Self.indexHeader(leafWords: 1) + [UInt8](repeating: 0, count: Self.rootBytes) + [0, 0])
    }

    func testATreeNodeBeyondTheNodeSectionIsRefused() {
        // The first root cell a node of 2 × 2 children in an index of no nodes.
        assertCorrupt(pack(heads: [0], tree: [3] + Self.seaTree, leafWords: 1), "a node of 4 children past the index's 0 node slots")
        // The walk fills fewer node slots than the index has.
        assertCorrupt(pack(heads: [0], nodeCount: 4, leafWords: 1), "pack tree: 0 node slots where the index has 4")
    }

    func testATreeSlotCodeBeyondNineIsRefused() {
        assertCorrupt(pack(heads: [0], tree: [10] + Self.seaTree, leafWords: 1), "slot code 10, not 0–9")
    }

    func testATreeLeafPastTheLeavesIsRefused() {
        // A root cell naming leaf 5 (the zigzag 10 after "the next leaf" 0) of a section of one leaf.
        assertCorrupt(pack(heads: [0], tree: [9, 10] + Self.seaTree.dropLast(2), leafWords: 1), "leaf 5 lies past the leaves section")
        // The control: the first root cell names the one leaf, which then has a cell.
        let good = pack(heads: [0], tree: [7] + Self.seaTree.dropLast(2), leafWords: 1)
        XCTAssertNoThrow(try good.withUnsafeBytes { try AreaIndexPack.decode(pack: $0, path: "h") })
    }

    func testAnIndexHeaderOfAnotherLayoutIsRefused() {
        var header = Self.indexHeader(leafWords: 1)
        header[48] = 0  // the root grid no longer right after the header
        assertCorrupt(pack(heads: [0], leafWords: 1, plain: header), "do not follow its header")
        // More nodes than the tree stream has bytes for.
        assertCorrupt(
            pack(heads: [0], leafWords: 1, plain: Self.indexHeader(nodeCount: 1 << 27, leafWords: 1)) {
                $0.leavesOffset = UInt64(AreaIndexFormat.headerSize + Self.rootBytes) + 4 << 27
                $0.unpackedBytes = $0.leavesOffset + 2
            },
            "disagrees")
    }

    func testASidePointBeyondTheCandidatesIsRefused() {
        // One group of two literals on the west side (sides code 3): the first gives its y as
        // a difference (1), the second names side point 5 of the one there is.
        let heads: [UInt8] = [1, 0, 0, 2]
        let y: [[UInt8]] = [[], [], [2], [0]]
        assertCorrupt(
            pack(heads: heads, ops: [2], flags: [0], coordinates: y, sides: [3, 3], across: [5], leafWords: 1 + 3 + 4),
            "side point 5 of 1")
        // The control: side point 1 is the first vertex's y again.
        let good = pack(heads: heads, ops: [2], flags: [0], coordinates: y, sides: [3, 3], across: [1], leafWords: 1 + 3 + 4)
        let bytes = try? good.withUnsafeBytes { try AreaIndexPack.decode(pack: $0, path: "h") }
        XCTAssertEqual(bytes.map { Array($0.suffix(8)) }, [0, 0, 1, 0, 0, 0, 1, 0])
    }
}

import GeoNewsData

/// The committed, compact encoding of `area-index.bin` (`Data/area-index.pack`), from which a
/// first run rebuilds the index byte for byte in seconds, with no time-zone download and no
/// GEOS.
///
/// Little-endian throughout.
///
/// ```
/// offset size
///      0    8  magic "GNAPACK1"
///      8    4  format version (AreaIndexPack.version)
///     12    4  number of streams (AreaIndexPack.streamCount)
///     16    8  size of the rebuilt file in bytes
///     24    8  its checksum, as Data/area-index.json records it (CountryIndexFormat.checksum
///              of every byte after its 128-byte header)
///     32    8  offset of its leaves section (AreaIndexFormat), in bytes
///     40    8  size of its leaves section, in bytes (even)
///     48  16×n per stream: its size in the pack, the size it inflates to
/// 48+16n       the streams, one after another, each a zlib stream (RFC 1950)
/// ```
///
/// Streams, in order (format 3; format 2 kept the root grid and the nodes in `plain` and had no
/// `across`; format 1 had no `sides` either and gave every literal coordinate as a difference):
///  0. `plain`: every byte of the file outside its root grid, nodes and leaves, in file order
///     (the 128-byte header, the regions, padding).
///  1. `tree`: the root grid and the nodes, walked depth first (see ``PackTree``).
///  2. `heads`: LEB128 varints: per leaf its word 0 (group count and depth), then per group its
///     region, ring count and vertex count.
///  3. `ops`: LEB128 varints, per group: a literal count, then, while the group's vertices are
///     not all given, a copy (the distance back into the vertices of this leaf given so far,
///     1 = the last one; then `(length − 1) × 2 + direction`, direction 1 forward and 0
///     backward) and another literal count. A region's edge shared with another region of the
///     same leaf is the other's vertices in reverse, so about a third of all vertices are
///     copies.
///  4. `flags`: bit 15 of every vertex's x (the country-edge bit), one bit each, least
///     significant bit first.
///  5–8. the literal vertices' coordinates that `sides` and `across` do not give, as zigzag
///     differences from the group's previous vertex (x modulo 2^15, y modulo 2^16; the first
///     from (0, 0)): low bytes of x, high bytes of x, low bytes of y, high bytes of y, so that
///     each stream holds bytes of one kind.
///  9. `rings`: LEB128 varints, per group the 2 × ring count words of its ring table, each a
///     zigzag difference (modulo 2^16) from the one before (the first from 0).
///  10. `sides`: one byte per literal vertex, 3 × (x's code) + (y's code), a code being 1 for
///     a coordinate at 0, 2 for one at 16,384 (a cell's sides) and 0 for any other. About half
///     of all literal coordinates lie on a side, and such a coordinate's difference costs about
///     13 bits where its share of this byte costs about 1.
///  11. `across`: per literal vertex on exactly one side, when the candidates below are not
///     none, a LEB128 varint: 0 when its coordinate along the side is given as a difference,
///     i ≥ 1 for the i-th candidate. The candidates are the points on that side of the leaf's
///     vertices so far and, when the leaf across that side has the same depth and comes
///     earlier, that leaf's points on the facing side, sorted (``PackSidePoints``). A
///     boundary that leaves a cell enters its neighbour at the same point, and a point on a
///     side recurs in every region that meets there.
///
/// Format 2 packed the area index of data version d01dc1f0df28d4d7 in 27,338,116 bytes, format 3
/// in 22,945,821: the tree stream saves 2.2 MB over the raw slots, `across` 2.1 MB of
/// differences.
///
/// Reading streams the leaves: every stream inflates through a small buffer of its own, and the
/// file is written in order as its words are rebuilt. What the decoder keeps is the cell tree
/// (rebuilt first, 12.6 MB for today's index) and, per leaf, its cell and its side points, for
/// the neighbour lookups: 65 MB peak in all for today's index.
public enum AreaIndexPack {
    /// The pack's name in the data folder (`Data/area-index.pack`).
    public static let fileName = "area-index.pack"
    package static let magic: [UInt8] = Array("GNAPACK1".utf8)
    package static let version: UInt32 = 3
    package static let streamCount = 12
    package static let headerSize = 48
    package static var fullHeaderSize: Int { headerSize + 16 * streamCount }

    /// The largest file a pack may rebuild (4 GiB): a count read from a pack is refused beyond
    /// it before anything is allocated or written.
    package static let maxUnpackedBytes: UInt64 = 1 << 32
    /// A zlib stream inflates at most 1032:1, so no honest stream is larger than this many
    /// times its compressed size.
    package static let maxInflationRatio: UInt64 = 1100

    package enum Stream: Int, CaseIterable {
        case plain, tree, heads, ops, flags, xLow, xHigh, yLow, yHigh, rings, sides, across
    }

    /// The fixed fields of a pack's header.
    package struct Header: Equatable {
        package var unpackedBytes: UInt64
        package var checksum: UInt64
        package var leavesOffset: UInt64
        package var leavesBytes: UInt64
        /// Per stream, its size in the pack and the size it inflates to.
        package var streams: [(packed: UInt64, inflated: UInt64)]

        package static func == (a: Header, b: Header) -> Bool {
            a.unpackedBytes == b.unpackedBytes && a.checksum == b.checksum && a.leavesOffset == b.leavesOffset
                && a.leavesBytes == b.leavesBytes && a.streams.elementsEqual(b.streams, by: { $0 == $1 })
        }

        /// The header's bytes.
        package var bytes: [UInt8] {
            var out = AreaIndexPack.magic
            func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            put(AreaIndexPack.version)
            put(UInt32(streams.count))
            put(unpackedBytes); put(checksum); put(leavesOffset); put(leavesBytes)
            for s in streams { put(s.packed); put(s.inflated) }
            return out
        }

        /// Reads and bounds a header: every count is checked against the pack's size and the
        /// limits above where it is read.
        package init(_ b: [UInt8], packBytes: UInt64, path: String) throws(DataError) {
            func integer<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
                var v: T = 0
                for i in 0..<MemoryLayout<T>.size { v |= T(b[offset + i]) << (8 * i) }
                return v
            }
            guard b.count >= AreaIndexPack.fullHeaderSize, Array(b[0..<8]) == AreaIndexPack.magic else {
                throw .corrupt(path: path, reason: "not a GeoNews area index pack (bad magic)")
            }
            let version = integer(UInt32.self, at: 8)
            guard version == AreaIndexPack.version else {
                throw .stale(path: path, reason: "pack format \(version), this build reads \(AreaIndexPack.version)")
            }
            guard integer(UInt32.self, at: 12) == UInt32(AreaIndexPack.streamCount) else {
                throw .corrupt(path: path, reason: "\(integer(UInt32.self, at: 12)) streams, not \(AreaIndexPack.streamCount)")
            }
            unpackedBytes = integer(UInt64.self, at: 16)
            checksum = integer(UInt64.self, at: 24)
            leavesOffset = integer(UInt64.self, at: 32)
            leavesBytes = integer(UInt64.self, at: 40)
            guard unpackedBytes <= AreaIndexPack.maxUnpackedBytes, leavesOffset >= UInt64(AreaIndexFormat.headerSize),
                leavesOffset <= unpackedBytes,
                leavesBytes <= unpackedBytes - leavesOffset, leavesBytes % 2 == 0
            else {
                throw .corrupt(path: path, reason: "sizes out of range (file \(unpackedBytes), leaves \(leavesBytes) at \(leavesOffset))")
            }
            streams = try AreaIndexPack.streamTable(
                b, at: 48, count: AreaIndexPack.streamCount, headerSize: AreaIndexPack.fullHeaderSize, packBytes: packBytes, path: path)
            guard
                streams[Stream.plain.rawValue].inflated == unpackedBytes - leavesBytes - (leavesOffset - UInt64(AreaIndexFormat.headerSize))
            else {
                throw .corrupt(path: path, reason: "plain stream does not fill the file outside its tree and leaves")
            }
        }

        package init(
            unpackedBytes: UInt64, checksum: UInt64, leavesOffset: UInt64, leavesBytes: UInt64,
            streams: [(packed: UInt64, inflated: UInt64)]
        ) {
            self.unpackedBytes = unpackedBytes
            self.checksum = checksum
            self.leavesOffset = leavesOffset
            self.leavesBytes = leavesBytes
            self.streams = streams
        }
    }

    /// Where an index's root grid, nodes and leaves lie, as its header says. A pack holds only
    /// the layout the builder writes: the root grid right after the header, the nodes right
    /// after the root grid, the leaves right after the nodes.
    package struct TreeLayout {
        package var nodeCount: Int
        package var leavesOffset: Int
        package var leafWords: Int

        /// The layout the first 128 bytes of an index name, or why it is not one a pack holds.
        package static func of(indexHeader b: [UInt8]) -> Result<TreeLayout, LayoutProblem> {
            typealias F = CountryIndexFormat
            guard b.count >= AreaIndexFormat.headerSize, Array(b[0..<8]) == AreaIndexFormat.magic else {
                return .failure(LayoutProblem(reason: "not an area index (bad magic)"))
            }
            func integer<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> UInt64 {
                var v: UInt64 = 0
                for i in 0..<MemoryLayout<T>.size { v |= UInt64(b[offset + i]) << (8 * i) }
                return v
            }
            let count = AreaIndexFormat.sectionCount
            let rootOffset = integer(UInt64.self, at: 48), nodesOffset = integer(UInt64.self, at: 56)
            let leavesOffset = integer(UInt64.self, at: 64)
            let rootCount = integer(UInt32.self, at: 48 + 8 * count), nodeCount = integer(UInt32.self, at: 52 + 8 * count)
            let leafWords = integer(UInt32.self, at: 56 + 8 * count)
            let rootBytes = UInt64(4 * F.rootColumns * F.rootRows)
            guard rootOffset == UInt64(AreaIndexFormat.headerSize), rootCount == UInt64(F.rootColumns * F.rootRows),
                nodesOffset == rootOffset + rootBytes, leavesOffset == nodesOffset + 4 * nodeCount
            else {
                return .failure(LayoutProblem(reason: "its root grid, nodes and leaves do not follow its header one after another"))
            }
            return .success(TreeLayout(nodeCount: Int(nodeCount), leavesOffset: Int(leavesOffset), leafWords: Int(leafWords)))
        }
    }

    package struct LayoutProblem: Error {
        package let reason: String
    }

    /// The coordinates a sides code names, by code (0 = not on a side, given as a difference).
    /// A cell spans 2^14 units, so its sides lie at 0 and 16,384 in either axis; about half of
    /// all literal coordinates lie there (a boundary following a cell's side, or a corner).
    package static let sideCoordinates: [UInt16] = [0, 0, 1 << 14]

    /// A coordinate's sides code: 1 at 0, 2 at 16,384, otherwise 0.
    package static func side(of coordinate: UInt16) -> UInt8 {
        coordinate == 0 ? 1 : coordinate == 1 << 14 ? 2 : 0
    }

    /// A pack header's table of streams (its size in the pack, the size it inflates to, per
    /// stream, from byte `offset` of `b`), each bounded where it is read: within the pack,
    /// within zlib's largest ratio, and all of them filling the pack after its header.
    package static func streamTable(
        _ b: [UInt8], at offset: Int, count: Int, headerSize: Int, packBytes: UInt64, path: String
    ) throws(DataError) -> [(packed: UInt64, inflated: UInt64)] {
        func integer(at o: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(b[o + i]) << (8 * i) }
            return v
        }
        var streams: [(packed: UInt64, inflated: UInt64)] = []
        var total = UInt64(headerSize)
        for s in 0..<count {
            let packed = integer(at: offset + 16 * s), inflated = integer(at: offset + 8 + 16 * s)
            guard packed <= packBytes, inflated <= maxUnpackedBytes, inflated <= packed * maxInflationRatio + 64 else {
                throw .corrupt(path: path, reason: "stream \(s) sizes out of range (\(packed) packed, \(inflated) inflated)")
            }
            guard total + packed <= packBytes else {
                throw .corrupt(path: path, reason: "truncated: stream \(s) ends past the pack's \(packBytes) bytes")
            }
            total += packed
            streams.append((packed, inflated))
        }
        guard total == packBytes else {
            throw .corrupt(path: path, reason: "\(packBytes) bytes where the header names \(total) (truncated?)")
        }
        return streams
    }

    /// `checksum` as the 16 hex digits of `Data/area-index.json`.
    package static func hex(_ checksum: UInt64) -> String {
        let h = String(checksum, radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h
    }
}

#if canImport(Glibc)
import GeoNewsData
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The committed, compact encoding of `land-index.bin` (`Data/land-index.pack`), from which a
/// first run rebuilds the index byte for byte in seconds, with no download and no GEOS.
///
/// Little-endian throughout.
///
/// ```
/// offset size
///      0    8  magic "GNLPACK1"
///      8    4  format version (LandIndexPack.version)
///     12    4  number of streams (4)
///     16    8  size of the rebuilt file in bytes
///     24    8  its checksum, as Data/land-index.json records it (CountryIndexFormat.checksum
///              of every byte after its 96-byte header)
///     32  16×4 per stream: its size in the pack, the size it inflates to
///     96       the streams, one after another, each a zlib stream (RFC 1950)
/// ```
///
/// Streams:
///  0. `plain`: every byte of the file but its leaves' vertices and corners, in file order (the
///     header, the root grid, the nodes, each leaf's group count, each group's two header words
///     and ring table, the padding), except that a group's ring table comes before its
///     vertices.
///  1. `x`, 2. `y`: per vertex of every leaf, in file order, the difference of its longitude
///     (latitude) from the vertex given before, in units of 2^-16°, zigzag-encoded as a LEB128
///     varint: the leaf's corner plus the vertex's offset from it, so runs continue across
///     leaves. The copies the layout repeats are not given: each ring's closing vertex (its
///     first again) and the returns to the group's first vertex between rings (see
///     ``CountryIndexFormat``), which the ring table places. They are a fifth of all vertices,
///     and the longest jumps.
///  3. `corners`: per leaf, in file order, the difference of its corner's x, then y, from the
///     leaf's before, in units of 2^-10° (every corner lies on that lattice), zigzag-encoded as
///     LEB128 varints: a leaf is most often beside the one before, so a corner takes two bytes
///     instead of eight.
public enum LandIndexPack {
    /// The pack's name in the data folder.
    public static let fileName = "land-index.pack"
    package static let magic: [UInt8] = Array("GNLPACK1".utf8)
    /// 2: the land index's compact leaves (``CountryIndexFormat/compactVersion``).
    package static let version: UInt32 = 2
    package static let streamCount = 4
    /// Units of 2^-16° per unit of the corners' stream (2^-10°).
    package static let cornerUnit = Int64(1) << (CountryIndexFormat.compactUnitBits - CountryIndexFormat.finestDepth)
    package static let headerSize = 32 + 16 * streamCount

    /// The fixed fields of a pack's header, each bounded by the pack's size where it is read.
    package struct Header {
        package var unpackedBytes: UInt64
        package var checksum: UInt64
        package var streams: [(packed: UInt64, inflated: UInt64)]

        package init(_ b: [UInt8], packBytes: UInt64, path: String) throws(DataError) {
            func integer<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
                var v: T = 0
                for i in 0..<MemoryLayout<T>.size { v |= T(b[offset + i]) << (8 * i) }
                return v
            }
            guard b.count >= LandIndexPack.headerSize, Array(b[0..<8]) == LandIndexPack.magic else {
                throw .corrupt(path: path, reason: "not a GeoNews land index pack (bad magic)")
            }
            let version = integer(UInt32.self, at: 8)
            guard version == LandIndexPack.version else {
                throw .stale(path: path, reason: "pack format \(version), this build reads \(LandIndexPack.version)")
            }
            guard integer(UInt32.self, at: 12) == UInt32(LandIndexPack.streamCount) else {
                throw .corrupt(path: path, reason: "\(integer(UInt32.self, at: 12)) streams, not \(LandIndexPack.streamCount)")
            }
            unpackedBytes = integer(UInt64.self, at: 16)
            checksum = integer(UInt64.self, at: 24)
            guard unpackedBytes <= AreaIndexPack.maxUnpackedBytes, unpackedBytes >= UInt64(CountryIndexFormat.headerSize) else {
                throw .corrupt(path: path, reason: "a rebuilt size of \(unpackedBytes) bytes is out of range")
            }
            streams = try AreaIndexPack.streamTable(
                b, at: 32, count: LandIndexPack.streamCount, headerSize: LandIndexPack.headerSize, packBytes: packBytes, path: path)
        }
    }

    /// Where a compact country-index-format file's leaves lie, as its header says.
    package struct Layout {
        package let leavesOffset: Int
        /// The leaves' 4-byte words.
        package let leafWords: Int

        package func leafWord(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
            UInt32(littleEndian: b.loadUnaligned(fromByteOffset: leavesOffset + 4 * i, as: UInt32.self))
        }
    }

    /// Rebuilds the file `header` describes, handing its bytes to `sink` in order; returns
    /// their checksum. Every count read from the pack is bounded by what is left of the file
    /// before it is acted on.
    package static func decode(
        source: PackSource, header: Header, path: String,
        sink: @escaping (UnsafeRawBufferPointer) throws(DataError) -> Void
    ) throws(DataError) -> UInt64 {
        var offset = UInt64(headerSize)
        var streams: [PackStream] = []
        for (s, sizes) in zip(["plain", "x", "y", "corners"], header.streams) {
            streams.append(
                try PackStream(source: source, range: offset..<(offset + sizes.packed), inflated: sizes.inflated, name: s, path: path))
            offset += sizes.packed
        }
        let plain = streams[0], xs = streams[1], ys = streams[2], corners = streams[3]
        let out = PackOutput(limit: header.unpackedBytes, path: path, headerSize: CountryIndexFormat.headerSize, sink: sink)
        var indexHeader = [UInt8](repeating: 0, count: CountryIndexFormat.headerSize)
        for i in indexHeader.indices { indexHeader[i] = try plain.byte() }
        let found = indexHeader.withUnsafeBytes { h in
            Result { () throws(DataError) in try Layout(h, path: path, fileBytes: header.unpackedBytes) }
        }
        let layout = try found.get()
        for b in indexHeader { try out.byte(b) }
        try plain.copy(UInt64(layout.leavesOffset - CountryIndexFormat.headerSize), to: out)
        func word() throws(DataError) -> UInt32 { try plain.word32() }
        func put(_ w: UInt32) throws(DataError) { try out.word32(w) }
        var at = 0
        var previous = (x: Int64(0), y: Int64(0))
        var corner = (x: Int64(0), y: Int64(0))
        let leafHeader = CountryIndexFormat.compactLeafHeaderWords
        while at < layout.leafWords {
            let groups = try word()
            corner.x &+= try corners.zigzag64() &* cornerUnit
            corner.y &+= try corners.zigzag64() &* cornerUnit
            guard let cx = UInt32(exactly: corner.x), let cy = UInt32(exactly: corner.y) else {
                throw .corrupt(path: path, reason: "the corner of the leaf at word \(at) lies outside the world")
            }
            guard layout.leafWords - at >= leafHeader, UInt64(groups) <= UInt64(layout.leafWords - at - leafHeader) / 2 else {
                throw .corrupt(path: path, reason: "a leaf at word \(at) runs past the leaves")
            }
            for w in [groups, cx, cy] { try put(w) }
            at += leafHeader
            for _ in 0..<groups {
                let head = try word(), count = try word()
                let n = Int(count), rings = Int(head >> 16)
                guard layout.leafWords - at >= 2, n <= layout.leafWords - at - 2, rings <= layout.leafWords - at - 2 - n else {
                    throw .corrupt(path: path, reason: "a leaf group at word \(at) runs past the leaves")
                }
                try put(head)
                try put(count)
                var table: [UInt32] = []
                for _ in 0..<rings { table.append(try word()) }
                let copies: Copies
                do { copies = try Copies(ringTable: table, vertexCount: n) } catch {
                    throw .corrupt(path: path, reason: "a leaf group at word \(at): \(error)")
                }
                var run = [UInt32](repeating: 0, count: n)
                for k in 0..<n {
                    if let source = copies.source(of: k) {
                        run[k] = run[source]
                        continue
                    }
                    previous.x &+= try xs.zigzag64()
                    previous.y &+= try ys.zigzag64()
                    let u = previous.x &- Int64(cx), v = previous.y &- Int64(cy)
                    guard u >= 0, u <= 0xFFFF, v >= 0, v <= 0xFFFF else {
                        throw .corrupt(path: path, reason: "a vertex of the leaf group at word \(at) lies outside its leaf")
                    }
                    run[k] = UInt32(u) | UInt32(v) << 16
                }
                for w in run { try put(w) }
                for w in table { try put(w) }
                at += 2 + n + rings
            }
        }
        let rest = header.unpackedBytes - UInt64(layout.leavesOffset + 4 * layout.leafWords)
        try plain.copy(rest, to: out)
        for s in streams { try s.finish() }
        try out.flush()
        guard out.count == header.unpackedBytes else {
            throw .corrupt(path: path, reason: "the pack rebuilds \(out.count) bytes, not the declared \(header.unpackedBytes)")
        }
        return out.finalChecksum
    }
}

extension LandIndexPack.Layout {
    /// The layout an index header names, bounded by the size of the file it heads.
    package init(_ header: UnsafeRawBufferPointer, path: String, fileBytes: UInt64) throws(DataError) {
        typealias F = CountryIndexFormat
        guard header.count >= F.headerSize, Array(header[0..<8]) == F.magic else {
            throw .corrupt(path: path, reason: "not a GeoNews land index (bad magic)")
        }
        let version = header.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        guard version == F.compactVersion else {
            throw .corrupt(path: path, reason: "index format \(version), not the land index's \(F.compactVersion)")
        }
        let offset = header.loadUnaligned(fromByteOffset: 48 + 16, as: UInt64.self)
        let words = header.loadUnaligned(fromByteOffset: 48 + 8 * F.sectionCount + 8, as: UInt32.self)
        guard offset % 8 == 0, offset >= UInt64(F.headerSize), offset <= fileBytes, UInt64(words) * 4 <= fileBytes - offset else {
            throw .corrupt(path: path, reason: "the index's leaves lie outside its \(fileBytes) bytes")
        }
        self.init(leavesOffset: Int(offset), leafWords: Int(words))
    }
}

extension LandIndexPack {
    /// The vertices of a group that repeat another, as its ring table places them: each ring's
    /// last (its first again), and every vertex outside the rings (a return to the group's
    /// first vertex). Each copy's source comes before it.
    package struct Copies {
        /// Per vertex, the vertex it repeats, or -1.
        private let sources: [Int32]

        package struct Problem: Error, CustomStringConvertible {
            package let description: String
        }

        /// - Parameter ringTable: per ring, its first vertex (bits 0–15) and one past its last
        /// (bits 16–31).
        package init(ringTable: [UInt32], vertexCount n: Int) throws(Problem) {
            var sources = [Int32](repeating: -1, count: n)
            var inRing = [Bool](repeating: false, count: n)
            var previousEnd = 0
            for (r, word) in ringTable.enumerated() {
                let first = Int(word & 0xFFFF), end = Int(word >> 16)
                guard first >= previousEnd, end >= first + 2, end <= n else {
                    throw Problem(description: "ring \(r) spans \(first)..<\(end) of \(n) vertices")
                }
                for k in first..<end { inRing[k] = true }
                sources[end - 1] = Int32(first)
                previousEnd = end
            }
            for k in 0..<n where !inRing[k] {
                guard k > 0 else { throw Problem(description: "vertex 0 lies outside every ring") }
                sources[k] = 0
            }
            self.sources = sources
        }

        package func source(of k: Int) -> Int? {
            let s = sources[k]
            return s < 0 ? nil : Int(s)
        }
    }
}

import Foundation
import GeoNewsBoundaryBuilding
import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

/// The committed pack of the area index: lossless, checked before it is made visible, and
/// safe against damaged or hostile input.
final class AreaIndexPackTests: XCTestCase {
    /// A small index in AreaIndexFormat's layout: three leaves, the second region of the first
    /// sharing an edge (in reverse) with the first, country-edge flags on some vertices; the
    /// third the first's northern neighbour, crossed by a boundary where the first's north side
    /// has a point. Root cell 0 is a node of 2 × 2 (the first leaf, a node, the third leaf, coastal
    /// sea), its second child a node of the second leaf and whole regions; root cell 1 names
    /// the first leaf again.
    static func handMadeIndex() -> [UInt8] {
        var leaves: [UInt16] = []
        leaves += [2 | 1 << 12]
        // Region 0: a square, closed; its east edge is a country edge.
        leaves += [0, 1, 5]
        leaves += [0, 0, 8192 | 1 << 15, 0, 8192 | 1 << 15, 16384, 0, 16384, 0, 0]
        leaves += [0, 5]
        // Region 1: the square east of it, sharing the edge (8192, 0)–(8192, 16384) reversed, and
        // a hole after the first ring's first vertex again.
        leaves += [1, 2, 10]
        leaves += [8192, 16384, 8192, 0, 16384, 0, 16384, 16384, 8192, 16384]
        leaves += [8192, 16384, 10000, 5000, 12000, 5000, 11000, 7000, 10000, 5000]
        leaves += [0, 5, 6, 10]
        // At word 43:
        leaves += [1 | 2 << 12, 3, 1, 4, 1, 2, 16383, 40000, 3, 1 | 1 << 15, 7, 1, 0, 4]
        // At word 57: its south side's point (8192, 0) is the first leaf's north side's.
        leaves += [1 | 1 << 12, 1, 1, 3, 8192, 0, 3000, 3000, 8192, 0, 0, 3]
        let leafBytes = leaves.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        var b = [UInt8](repeating: 0, count: 128)
        b.replaceSubrange(0..<8, with: Array("GNAREAX1".utf8))
        func put<T: FixedWidthInteger>(_ v: T, at o: Int) {
            withUnsafeBytes(of: v.littleEndian) { b.replaceSubrange(o..<(o + $0.count), with: $0) }
        }
        typealias F = CountryIndexFormat
        func leaf(_ offset: UInt32) -> UInt32 { CellSlot(.leaf, payload: offset).raw }
        put(UInt32(3), at: 8)
        put(UInt32(2), at: 40)
        var root = [UInt32](repeating: 0, count: F.rootColumns * F.rootRows)
        root[0] = CellSlot(nodeOf: 1, childBase: 0).raw
        root[1] = leaf(0)
        let nodes = [
            leaf(0), CellSlot(nodeOf: 1, childBase: 4).raw, leaf(57), F.coastalSea, leaf(43), CellSlot(.country, payload: 1).raw,
            CellSlot(.country, payload: 1).raw,
            CellSlot(.country, payload: 0).raw,
        ]
        let nodesAt = 128 + 4 * root.count, leavesAt = nodesAt + 4 * nodes.count
        put(UInt64(128), at: 48)
        put(UInt64(nodesAt), at: 56)
        put(UInt64(leavesAt), at: 64)
        put(UInt32(root.count), at: 80)
        put(UInt32(nodes.count), at: 84)
        put(UInt32(leaves.count), at: 88)
        b += (root + nodes).flatMap { s in (0..<4).map { UInt8(truncatingIfNeeded: s >> (8 * $0)) } } + leafBytes
        b += [UInt8](repeating: 0, count: (8 - b.count % 8) % 8)
        put(UInt64(b.count), at: 72)
        put(UInt32(4), at: 92)
        b += (0..<16).map { UInt8($0 * 17) }
        b += [UInt8](repeating: 0, count: (32 - (b.count - 128) % 32) % 32)
        return b
    }

    /// A folder holding a data directory with `index`'s record and pack (or `pack`).
    private func dataDirectory(for index: [UInt8], pack: [UInt8]? = nil, record: AreaIndexRecord? = nil) throws -> DataDirectory {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pack-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let dir = DataDirectory(path: folder)
        try Data((record ?? AreaIndexRecord(of: index)).json.utf8).write(to: URL(fileURLWithPath: dir.file("area-index.json")))
        try Data(try pack ?? AreaIndexPack.encode(index)).write(to: URL(fileURLWithPath: dir.file(AreaIndexPack.fileName)))
        return dir
    }

    private func contents(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func testTheHandMadeIndexRoundTripsByteForByte() throws {
        let index = Self.handMadeIndex()
        let pack = try AreaIndexPack.encode(index)
        let rebuilt = try pack.withUnsafeBytes { try AreaIndexPack.decode(pack: $0, path: "test") }
        XCTAssertEqual(rebuilt, index)
        XCTAssertEqual(Array(pack[0..<8]), Array("GNAPACK1".utf8))
        // The shared edge is one copy of two vertices, taken backward; the other 20 of the 22
        // vertices are literals (a copy shorter than two is not worth its op).
        let header = try AreaIndexPack.Header(Array(pack.prefix(AreaIndexPack.fullHeaderSize)), packBytes: UInt64(pack.count), path: "test")
        XCTAssertEqual(header.streams[AreaIndexPack.Stream.sides.rawValue].inflated, 20)
        // Four literals lie on one side where a point already is: (8192, 16384) twice more in
        // the first leaf, (8192, 0) twice in the third (the first time its neighbour's). Each
        // is a place among those points in `across`, so of the 20 literals' coordinates only
        // 11 x and 9 y are given as differences (those off the cells' sides and not named).
        XCTAssertEqual(header.streams[AreaIndexPack.Stream.across.rawValue].inflated, 4)
        XCTAssertEqual(header.streams[AreaIndexPack.Stream.xLow.rawValue].inflated, 11)
        XCTAssertEqual(header.streams[AreaIndexPack.Stream.yLow.rawValue].inflated, 9)
        XCTAssertEqual(header.unpackedBytes, UInt64(index.count))

        let dir = try dataDirectory(for: index)
        let target = dir.path + "/out"
        let path = try dir.installAreaIndex(into: target)
        XCTAssertEqual(path, target + "/area-index.bin")
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), index)
        XCTAssertEqual(try contents(target), ["area-index.bin"])
        // Installing again keeps the checked file.
        XCTAssertEqual(try dir.installAreaIndex(into: target), path)
    }

    func testTheRunningChecksumIsTheIndexChecksum() {
        var bytes = [UInt8](repeating: 0, count: 128 + 32 * 37)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        var running = RunningChecksum(skipping: 128)
        var at = 0
        for size in [1, 127, 3, 64, 33, 900, 5000] where at < bytes.count {
            let end = min(bytes.count, at + size)
            bytes[at..<end].withUnsafeBytes { running.add($0) }
            at = end
        }
        let whole = bytes.withUnsafeBytes { CountryIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: $0[128...])) }
        XCTAssertEqual(running.value, whole)
        XCTAssertEqual(AreaIndexPack.hex(whole), AreaIndexRecord(of: bytes).checksum)
    }

    func testATruncatedPackIsRefusedAndLeavesNothing() throws {
        let index = Self.handMadeIndex()
        let pack = try AreaIndexPack.encode(index)
        let dir = try dataDirectory(for: index, pack: Array(pack.dropLast(7)))
        let target = dir.path + "/out"
        XCTAssertThrowsError(try dir.installAreaIndex(into: target)) { error in
            XCTAssertTrue("\(error)".contains("area-index.pack is damaged"), "\(error)")
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
        }
        XCTAssertEqual(try contents(target), [])
    }

    func testAPackWhoseIndexFailsTheRecordedChecksumLeavesNothing() throws {
        let index = Self.handMadeIndex()
        var pack = try AreaIndexPack.encode(index)
        // The pack and the record agree on a checksum the rebuilt bytes do not have.
        pack[24] ^= 1
        let wrong = try AreaIndexPack.Header(Array(pack.prefix(AreaIndexPack.fullHeaderSize)), packBytes: UInt64(pack.count), path: "t")
        let record = try JSONDecoder().decode(
            AreaIndexRecord.self,
            from: Data(
                """
                {"file": "area-index.bin", "bytes": \(index.count), "checksum": "\(AreaIndexPack.hex(wrong.checksum))"}
                """.utf8))
        let dir = try dataDirectory(for: index, pack: pack, record: record)
        let target = dir.path + "/out"
        XCTAssertThrowsError(try dir.installAreaIndex(into: target)) { error in
            XCTAssertTrue("\(error)".contains("is not the recorded \(record.checksum)"), "\(error)")
        }
        XCTAssertEqual(try contents(target), [])
    }

    func testAPackOfAnotherDataVersionIsStale() throws {
        let index = Self.handMadeIndex()
        var other = index
        other[200] ^= 0xFF
        let dir = try dataDirectory(for: index, pack: try AreaIndexPack.encode(other))
        XCTAssertThrowsError(try dir.installAreaIndex(into: dir.path + "/out")) { error in
            guard case DataError.stale(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("area-index.pack"))
        }
    }

    func testAFlippedStreamByteIsCaught() throws {
        let index = Self.handMadeIndex()
        let pack = try AreaIndexPack.encode(index)
        // A flip is refused (zlib's Adler-32, the counts' bounds), or it falls only on the unused
        // padding bits of a deflate stream's last byte and rebuilds the same index: at most one
        // such byte per stream.
        var unchanged = 0
        for at in stride(from: AreaIndexPack.fullHeaderSize, to: pack.count, by: 3) {
            var damaged = pack
            damaged[at] ^= 0x5A
            guard let rebuilt = try? damaged.withUnsafeBytes({ try AreaIndexPack.decode(pack: $0, path: "t") }) else { continue }
            XCTAssertEqual(rebuilt, index, "byte \(at)")
            unchanged += 1
        }
        XCTAssertLessThanOrEqual(unchanged, AreaIndexPack.streamCount)
    }

    /// A run killed mid-unpack leaves only its temporary file; the next install removes it once
    /// it is old enough to be abandoned, and keeps a recent one (another run's, under way).
    func testAnAbandonedPartialFileIsRemovedByTheNextInstall() throws {
        let index = Self.handMadeIndex()
        let dir = try dataDirectory(for: index)
        let target = dir.path + "/out"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in ["area-index.bin.partial-old123", "area-index.bin.partial-new456"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: target + "/" + name, contents: Data([1, 2, 3])))
        }
        let old = Date(timeIntervalSinceNow: -Double(DataDirectory.abandonedPartialSeconds + 60))
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: target + "/area-index.bin.partial-old123")
        try dir.installAreaIndex(into: target)
        XCTAssertEqual(try contents(target), ["area-index.bin", "area-index.bin.partial-new456"])
    }

    func testTheCacheFolderFollowsXDG() {
        XCTAssertEqual(
            DataDirectory.cacheFolder(dataID: "d01dc1f0df28d4d7", xdgCacheHome: "/var/cache/u/", home: "/home/u"),
            "/var/cache/u/geonews/d01dc1f0df28d4d7")
        XCTAssertEqual(
            DataDirectory.cacheFolder(dataID: "d01dc1f0df28d4d7", xdgCacheHome: nil, home: "/home/u"),
            "/home/u/.cache/geonews/d01dc1f0df28d4d7")
        // XDG: a relative XDG_CACHE_HOME is ignored.
        XCTAssertEqual(DataDirectory.cacheFolder(dataID: "ab", xdgCacheHome: "cache", home: "/root/"), "/root/.cache/geonews/ab")
        XCTAssertNil(DataDirectory.cacheFolder(dataID: "ab", xdgCacheHome: nil, home: nil))
    }

    func testTheDataIDIsTheRecordedChecksum() throws {
        let index = Self.handMadeIndex()
        let dir = try dataDirectory(for: index)
        XCTAssertEqual(try dir.areaIndexDataID(), AreaIndexRecord(of: index).checksum)
        XCTAssertEqual(try dir.areaIndexDataID().count, 16)
    }

    /// The committed pack rebuilds the index the committed record names (its header says so;
    /// the bytes are checked when it is unpacked).
    func testTheCommittedPackMatchesTheRecord() throws {
        let record = try AreaIndexRecord.load(from: TestData.directory)
        let file = try MappedFile(path: TestData.directory.file(AreaIndexPack.fileName))
        let header = try withExtendedLifetime(file) {
            try AreaIndexPack.Header(
                Array(file.bytes.prefix(AreaIndexPack.fullHeaderSize)), packBytes: UInt64(file.bytes.count),
                path: "Data/area-index.pack")
        }
        XCTAssertEqual(header.unpackedBytes, UInt64(record.bytes))
        XCTAssertEqual(AreaIndexPack.hex(header.checksum), record.checksum)
    }
}

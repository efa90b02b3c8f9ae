import Foundation
import GeoNewsBoundaryBuilding
import GeoNewsData
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The land index built from a small hand-made land, its pack, and the committed one.
final class LandIndexPackTests: XCTestCase {
    /// Little-endian WKB of a MultiPolygon of one-ring polygons, each given open as (x, y).
    static func multiPolygon(_ rings: [[(Double, Double)]]) -> [UInt8] {
        var out: [UInt8] = [1]
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
        func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        u32(6)
        u32(rings.count)
        for ring in rings {
            out.append(1)
            u32(3)
            u32(1)
            u32(ring.count + 1)
            for (x, y) in ring + [ring[0]] { f64(x); f64(y) }
        }
        return out
    }

    /// An island west of Lizard Island (Queensland, in Australia's regions) and a square on
    /// Baker Island (in the open ocean's Etc/GMT+12, which names no country).
    static func tinyLand() throws -> (bytes: [UInt8], report: LandIndexBuilder.Report, ids: [String]) {
        let resolver = try TestData.resolver()
        let ids = resolver.catalogue.countries.map(\.id)
        let naturalEarth = try CountryIndex(path: TestData.directory.file("country-index.bin"), catalogueIDs: ids)
        let wkb = multiPolygon([
            [(145.44, -14.68), (145.47, -14.68), (145.47, -14.65), (145.44, -14.65)],
            [(-176.49, 0.18), (-176.46, 0.18), (-176.46, 0.21), (-176.49, 0.21)],
        ])
        let built = try wkb.withUnsafeBytes {
            try LandIndexBuilder().build(land: $0, path: "test", areas: resolver.areas, naturalEarth: naturalEarth, catalogueIDs: ids)
        }
        return (built.bytes, built.report, ids)
    }

    func testATinyLandIsBuiltNamedPackedAndRebuiltByteForByte() throws {
        let (bytes, report, ids) = try Self.tinyLand()
        XCTAssertEqual(report.polygons, 2)
        XCTAssertEqual(report.sourceVertices, 10)
        XCTAssertEqual(report.partsByNaturalEarth, 1, "Baker Island's square lies only in the open ocean's regions")
        let pack = try bytes.withUnsafeBytes { try LandIndexPack.encode($0, path: "test") }
        XCTAssertEqual(Array(pack[0..<8]), Array("GNLPACK1".utf8))
        XCTAssertEqual(try pack.withUnsafeBytes { try LandIndexPack.decode(pack: $0, path: "test") }, bytes)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("land-\(UUID().uuidString).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let index = try CountryIndex(path: path, catalogueIDs: ids)
        try index.verify()
        func iso2(_ lat: Double, _ lon: Double) -> String? {
            index.countryIndex(at: Coordinate(latitude: lat, longitude: lon)).map {
                try! TestData.resolver().catalogue.countries[$0].iso2 ?? ""
            }
        }
        XCTAssertEqual(iso2(-14.665, 145.455), "AU")
        XCTAssertEqual(iso2(0.195, -176.475), "UM", "named by Natural Earth's Baker Island")
        XCTAssertNil(iso2(-14.60, 145.30), "at sea")
        // 0.03° of longitude east of the island's east side at 14.665° S.
        let land = try XCTUnwrap(index.nearestLand(to: Coordinate(latitude: -14.665, longitude: 145.50)))
        let expected = GreatCircle.distance(
            from: Coordinate(latitude: -14.665, longitude: 145.50), to: Coordinate(latitude: -14.665, longitude: 145.47))
        XCTAssertEqual(land.distanceKm, expected, accuracy: 0.002)
    }

    func testTheLeavesAreCompactAndAnIndexOfAnotherFormatIsRefusedByThePacker() throws {
        var (bytes, report, _) = try Self.tinyLand()
        XCTAssertEqual(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self) }, CountryIndexFormat.compactVersion)
        // The leaves: a header of three words, then per group two words, a word per vertex of
        // the run (the rings' and one return to the first vertex per ring after the first, at
        // most) and one per ring.
        let words = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 48 + 8 * 3 + 8, as: UInt32.self) })
        XCTAssertEqual(words, 3 * report.index.leaves + 2 * report.index.groups + report.index.vertices + report.index.rings)
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: CountryIndexFormat.version.littleEndian, toByteOffset: 8, as: UInt32.self) }
        XCTAssertThrowsError(try bytes.withUnsafeBytes { try LandIndexPack.encode($0, path: "t.bin") }) { error in
            XCTAssertTrue("\(error)".contains("t.bin") && "\(error)".contains("index format 2"), "\(error)")
        }
    }

    func testALeafCornerOffTheLatticeIsRefusedByThePacker() throws {
        var (bytes, _, _) = try Self.tinyLand()
        let leaves = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 64, as: UInt64.self) })
        // The first leaf: its group count, then its corner's x and y.
        let x = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: leaves + 4, as: UInt32.self) }
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: (x + 1).littleEndian, toByteOffset: leaves + 4, as: UInt32.self) }
        XCTAssertThrowsError(try bytes.withUnsafeBytes { try LandIndexPack.encode($0, path: "t.bin") }) { error in
            XCTAssertTrue("\(error)".contains("t.bin") && "\(error)".contains("off the 2^-10° lattice"), "\(error)")
        }
    }

    /// A compact leaf gives back the doubles a version-2 leaf of snapped vertices held: the
    /// island's corners, exactly.
    func testACompactLeafGivesBackTheSnappedDoubles() throws {
        let (bytes, _, ids) = try Self.tinyLand()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("land-\(UUID().uuidString).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let index = try CountryIndex(path: path, catalogueIDs: ids)
        XCTAssertTrue(index.compactLeaves)
        let snap = { (v: Double) in (v * 65536).rounded() / 65536 }
        var corners = Set<[Double]>()
        var offset = 0
        while offset < index.leafWordCount {
            let leaf = Leaf(index.leaves, offset: offset, compact: true)
            XCTAssertEqual(leaf.x0 * 1024, (leaf.x0 * 1024).rounded(), "the corner is on the 2^-10° lattice")
            var g = leaf.first
            for _ in 0..<leaf.groupCount {
                let group = leaf.group(at: g)
                for k in 0..<group.vertexCount {
                    let v = group.vertex(k)
                    XCTAssertGreaterThanOrEqual(v.x, leaf.x0)
                    XCTAssertLessThanOrEqual(v.x, leaf.x0 + 0.5)
                    corners.insert([v.x, v.y])
                }
                g = group.next
            }
            offset = g / 4
        }
        for corner in [[145.44, -14.68], [145.47, -14.65], [-176.49, 0.18], [-176.46, 0.21]] {
            XCTAssertTrue(corners.contains(corner.map(snap)), "\(corner)")
        }
    }

    func testATruncatedOrDamagedPackIsRefused() throws {
        let (bytes, _, _) = try Self.tinyLand()
        let pack = try bytes.withUnsafeBytes { try LandIndexPack.encode($0, path: "test") }
        let short = Array(pack.dropLast(5))
        XCTAssertThrowsError(try short.withUnsafeBytes { try LandIndexPack.decode(pack: $0, path: "p") }) { error in
            XCTAssertTrue("\(error)".contains("p is damaged"), "\(error)")
        }
        var unchanged = 0
        for at in stride(from: LandIndexPack.headerSize, to: pack.count, by: 23) {
            var damaged = pack
            damaged[at] ^= 0x5A
            guard let rebuilt = try? damaged.withUnsafeBytes({ try LandIndexPack.decode(pack: $0, path: "t") }) else { continue }
            XCTAssertEqual(rebuilt, bytes, "byte \(at)")
            unchanged += 1
        }
        XCTAssertLessThanOrEqual(unchanged, LandIndexPack.streamCount)
        var header = pack
        header[16] ^= 0x01  // the declared size
        XCTAssertThrowsError(try header.withUnsafeBytes { try LandIndexPack.decode(pack: $0, path: "p") })
    }

    /// A data folder holding the hand-made area index's pack and the tiny land's, each with
    /// its record, and the two indexes as they should come out.
    private func bothPacks() throws -> (dir: DataDirectory, area: [UInt8], land: [UInt8]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("packs-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return try Self.writeBothPacks(into: folder)
    }

    /// ``bothPacks()`` in `folder` (made if missing, left for the caller to remove).
    static func writeBothPacks(into folder: String) throws -> (dir: DataDirectory, area: [UInt8], land: [UInt8]) {
        let area = AreaIndexPackTests.handMadeIndex()
        let land = try Self.tinyLand().bytes
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let dir = DataDirectory(path: folder)
        func write(_ bytes: [UInt8], _ name: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: dir.file(name))) }
        try write(Array(AreaIndexRecord(of: area).json.utf8), AreaIndexRecord.recordName)
        try write(try AreaIndexPack.encode(area), AreaIndexPack.fileName)
        try write(Array(land.withUnsafeBytes { AreaIndexRecord.land(of: $0) }.json.utf8), LandIndexFormat.recordName)
        try write(try land.withUnsafeBytes { try LandIndexPack.encode($0, path: "test") }, LandIndexPack.fileName)
        return (dir, area, land)
    }

    /// The two packs unpack side by side: both indexes come out whole; when one pack is
    /// damaged, its error is the one thrown, it leaves nothing behind, and the other index is
    /// installed all the same (the next run unpacks only what is missing).
    func testTheAreaAndLandPacksUnpackSideBySideAndFailApart() throws {
        for damaged in [nil, AreaIndexPack.fileName, LandIndexPack.fileName] {
            let (dir, area, land) = try bothPacks()
            if let damaged {
                let pack = try Data(contentsOf: URL(fileURLWithPath: dir.file(damaged)))
                try pack.dropLast(7).write(to: URL(fileURLWithPath: dir.file(damaged)))
            }
            let target = dir.path + "/out"
            do {
                try dir.installAreaIndex(into: target)
                XCTAssertNil(damaged, "a damaged \(damaged ?? "") was installed")
            } catch {
                XCTAssertTrue("\(error)".contains(dir.file(damaged ?? "none")), "\(damaged ?? "none"): \(error)")
            }
            let installed = try FileManager.default.contentsOfDirectory(atPath: target).sorted()
            switch damaged {
            case nil: XCTAssertEqual(installed, [AreaIndexRecord.fileName, LandIndexFormat.fileName])
            case AreaIndexPack.fileName?: XCTAssertEqual(installed, [LandIndexFormat.fileName])
            default: XCTAssertEqual(installed, [AreaIndexRecord.fileName])
            }
            for (name, bytes) in [(AreaIndexRecord.fileName, area), (LandIndexFormat.fileName, land)] where installed.contains(name) {
                XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: target + "/" + name))), bytes, name)
            }
        }
    }

    /// ``sideBySide(_:_:)`` runs its second job on another thread, waits for both, and throws
    /// the first job's error before the second's.
    func testSideBySideRunsBothAndThrowsTheFirstError() throws {
        var first = pthread_self(), second = pthread_self()
        try sideBySide({ first = pthread_self() }, { second = pthread_self() })
        XCTAssertEqual(pthread_equal(first, second), 0, "the second job ran on the calling thread")
        let a = DataError.corrupt(path: "a", reason: "first"), b = DataError.corrupt(path: "b", reason: "second")
        var ranFirst = false, ranSecond = false
        XCTAssertThrowsError(
            try sideBySide(
                { () throws(DataError) in
                    ranFirst = true; throw a
                },
                { () throws(DataError) in
                    ranSecond = true; throw b
                })
        ) { XCTAssertEqual("\($0)", "\(a)") }
        XCTAssertTrue(ranFirst && ranSecond)
        XCTAssertThrowsError(try sideBySide({}, { () throws(DataError) in throw b })) { XCTAssertEqual("\($0)", "\(b)") }
    }

    /// The coast grid's marks the land index stores are the ones its tree gives, and Natural
    /// Earth's index, which stores none, still has its grid read off the tree.
    func testTheStoredCoastMarksAreTheTreesOwn() throws {
        let index = try TestData.resolver().index
        let stored = try XCTUnwrap(index.coastMarks)
        XCTAssertEqual(stored.count, CoastGrid.landMarkWords)
        XCTAssertEqual(Array(stored), CoastGrid.landMarks(of: index))
        XCTAssertGreaterThan(stored.reduce(0) { $0 + $1.nonzeroBitCount }, 100_000, "cells along every coast")
        XCTAssertNil(try TestData.naturalEarthIndex().coastMarks)
    }

    /// The land index the resolver reads is the one `Data/land-index.json` records, and its
    /// every byte passes the checksum and the layout check.
    func testTheInstalledLandIndexIsTheRecordedOne() throws {
        let dir = TestData.directory
        let record = try AreaIndexRecord.load(from: dir, recordName: LandIndexFormat.recordName)
        let path = dir.areaIndexFolder + "/" + LandIndexFormat.fileName
        let file = try MappedFile(path: path)
        XCTAssertEqual(withExtendedLifetime(file) { AreaIndexRecord.land(of: file.bytes) }, record)
        try TestData.resolver().index.verify()
    }
}

import Foundation
import GeoNewsBenchmarking
import GeoNewsData
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The region of a position (`Data/regions.bin`): against GEOS on the index's own polygons
/// (Fixtures/region-samples.tsv, written by Scripts/build_regions.py with shapely), at known
/// places, across the antimeridian, at sea, and on damaged files.
final class RegionIndexTests: XCTestCase {
    private static let loaded = Once<RegionIndex>()
    private func index() throws -> RegionIndex {
        try Self.loaded.value { try RegionIndex.load(from: TestData.directory) }
    }

    func testEverySampleGetsTheRegionGEOSFinds() throws {
        let url = TestData.packageRoot.appendingPathComponent("Tests/GeoNewsBoundariesTests/Fixtures/region-samples.tsv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
        XCTAssertGreaterThan(lines.count, 1000)
        var inside = 0, nearest = 0
        for line in lines {
            let f = line.split(separator: "\t").map(String.init)
            let position = Coordinate(latitude: try XCTUnwrap(Double(f[0])), longitude: try XCTUnwrap(Double(f[1])))
            let answer = try XCTUnwrap(try index().region(at: position, country: f[2]), String(line))
            XCTAssertEqual(answer.region.geonamesAdmin1, f[3], String(line))
            XCTAssertEqual(answer.region.country, f[2], String(line))
            XCTAssertEqual(answer.inside, f[4] == "inside", String(line))
            if answer.inside { inside += 1 } else { nearest += 1 }
        }
        XCTAssertGreaterThan(inside, 1000)
        XCTAssertGreaterThan(nearest, 100)
    }

    /// The edge index (bands for the crossing test, cells for the nearest search) gives the
    /// plain search's answer at every sample and at 10 positions around each, up to 0.4° off
    /// (inside, across borders, at sea), and at the poles and the antimeridian.
    func testTheEdgeIndexAnswersAsThePlainSearch() throws {
        let plain = try index()
        let fast = plain.withEdgeIndex()
        XCTAssertTrue(fast.withEdgeIndex() === fast, "built once")
        let url = TestData.packageRoot.appendingPathComponent("Tests/GeoNewsBoundariesTests/Fixtures/region-samples.tsv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
        var generator = TestRandom.generator(for: "RegionIndexTests.\(#function)")
        var positions: [(Coordinate, String)] = [
            (Coordinate(latitude: 89.9, longitude: 10), "RU"), (Coordinate(latitude: -89.9, longitude: 0), "AQ"),
            (Coordinate(latitude: 65.5, longitude: 179.999), "RU"), (Coordinate(latitude: 65.5, longitude: -179.999), "RU"),
            (Coordinate(latitude: -17.8, longitude: 179.99), "FJ"), (Coordinate(latitude: 51.8, longitude: -176.6), "US"),
        ]
        for line in lines {
            let f = line.split(separator: "\t").map(String.init)
            let lat = try XCTUnwrap(Double(f[0])), lon = try XCTUnwrap(Double(f[1]))
            positions.append((Coordinate(latitude: lat, longitude: lon), f[2]))
            for _ in 0..<10 {
                let moved = Coordinate(
                    latitude: max(-90, min(90, lat + Double.random(in: -0.4...0.4, using: &generator))),
                    longitude: GreatCircle.normalizedLongitude(lon + Double.random(in: -0.4...0.4, using: &generator)))
                positions.append((moved, f[2]))
            }
        }
        var differ: [String] = [], inside = 0, nearest = 0
        for (position, country) in positions {
            let a = plain.region(at: position, country: country), b = fast.region(at: position, country: country)
            if a != b { differ.append("\(position) in \(country): \(String(describing: a)) against \(String(describing: b))") }
            if b?.inside == true { inside += 1 } else { nearest += 1 }
        }
        XCTAssertEqual(differ.prefix(10), [], "\(differ.count) of \(positions.count) differ")
        XCTAssertGreaterThan(inside, 5_000)
        XCTAssertGreaterThan(nearest, 2_500)
    }

    func testKnownPlacesAndTheirFinerUnits() throws {
        let cases: [(Double, Double, String, String?, String?)] = [
            (45.764, 4.8357, "FR.84", "FR-ARA", "Rhône"),  // Lyon
            (48.137, 11.575, "DE.02", "DE-BY", nil),  // Munich
            (29.76, -95.37, "US.TX", "US-TX", nil),  // Houston
            (51.5, -0.12, "GB.ENG", "GB-ENG", "Westminster"),  // London
            (22.5726, 88.3639, "IN.28", "IN-WB", nil),  // Kolkata
        ]
        let resolver = try TestData.resolver()
        for (lat, lon, geonames, iso, sub) in cases {
            let r = resolver.resolve(Coordinate(latitude: lat, longitude: lon))
            let answer = try XCTUnwrap(try index().region(for: r), "\(lat), \(lon)")
            XCTAssertEqual(answer.region.geonamesAdmin1, geonames)
            XCTAssertEqual(answer.region.iso3166Code, iso)
            XCTAssertEqual(answer.subregion?.name, sub, "\(lat), \(lon)")
            XCTAssertTrue(answer.inside)
            XCTAssertEqual(answer.region.country, r.country?.iso2)
        }
    }

    func testAtSeaTheCountrysNearestRegionAndBeyondNone() throws {
        let resolver = try TestData.resolver()
        // In the Gulf of Lion off Marseille, inside France's territorial sea.
        let gulf = resolver.resolve(Coordinate(latitude: 43.2, longitude: 5.3))
        XCTAssertEqual(gulf.country?.iso2, "FR")
        let answer = try XCTUnwrap(try index().region(for: gulf))
        XCTAssertEqual(answer.region.iso3166Code, "FR-PAC")
        XCTAssertFalse(answer.inside)
        // The open Atlantic: no country, so no region.
        XCTAssertNil(try index().region(for: resolver.resolve(Coordinate(latitude: 0, longitude: -30))))
        // A country code with no regions.
        XCTAssertNil(try index().region(at: Coordinate(latitude: 0, longitude: 0), country: "ZZ"))
    }

    func testChukotkaOnBothSidesOfTheAntimeridian() throws {
        for lon in [179.9, -179.9, 180, -180] {
            let answer = try XCTUnwrap(try index().region(at: Coordinate(latitude: 66.0, longitude: lon), country: "RU"), "\(lon)")
            XCTAssertEqual(answer.region.iso3166Code, "RU-CHU", "\(lon)")
        }
        // Wrangel Island's sea, north of the island: Chukotka is the nearest region across ±180.
        let north = try XCTUnwrap(try index().region(at: Coordinate(latitude: 71.8, longitude: -179.95), country: "RU"))
        XCTAssertEqual(north.region.iso3166Code, "RU-CHU")
    }

    /// A region index without a folder of its own, an empty folder (removed when the test ends)
    /// and the identity of its regions.bin.
    private func edgeFileCase() throws -> (RegionIndex, String, (bytes: UInt64, crc: UInt32)) {
        let plain = try RegionIndex(path: TestData.directory.file(RegionIndex.fileName))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-region-edges-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return (plain, folder, (UInt64(plain.bytes.count), RegionEdgeIndex.crc32(plain.bytes)))
    }

    /// The edge index a run builds is kept in the area index folder and read back as it was
    /// built, byte for byte; a folder that cannot be written keeps it in memory.
    func testTheEdgeIndexIsKeptAndReadBackAsBuilt() throws {
        let (plain, folder, source) = try edgeFileCase()
        let built = RegionEdgeIndex.load(for: plain, folder: folder)
        let path = folder + "/" + RegionEdgeIndex.fileName
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(written, built.encoded(source: source))
        let read = try XCTUnwrap(written.withUnsafeBytes { RegionEdgeIndex.decode($0, for: plain, source: source) })
        XCTAssertEqual(read.encoded(source: source), written, "read back as built")
        XCTAssertEqual(read.bandEdges, built.bandEdges)
        XCTAssertEqual(read.whole, built.whole)
        let unwritable = RegionEdgeIndex.load(for: plain, folder: folder + "/missing")
        XCTAssertEqual(unwritable.cellEdges, built.cellEdges, "kept in memory")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/missing"))
    }

    /// A file that names another regions.bin, fails its checksum, or (with its checksum written
    /// again) holds a count or an edge out of bounds is refused, and the next load writes a good
    /// one over it.
    func testAStaleOrDamagedEdgeFileIsRefusedAndBuiltAgain() throws {
        let (plain, folder, source) = try edgeFileCase()
        let good = RegionEdgeIndex(plain).encoded(source: source)
        func decodes(_ bytes: [UInt8], source: (bytes: UInt64, crc: UInt32)? = nil) -> Bool {
            bytes.withUnsafeBytes {
                RegionEdgeIndex.decode($0, for: plain, source: source ?? (UInt64(plain.bytes.count), RegionEdgeIndex.crc32(plain.bytes)))
            } != nil
        }
        XCTAssertTrue(decodes(good))
        XCTAssertFalse(decodes(good, source: (source.bytes, source.crc ^ 1)), "another regions.bin")
        XCTAssertFalse(decodes(Array(good.dropLast(4))), "truncated")
        var flipped = good
        flipped[good.count / 2] ^= 0x10
        XCTAssertFalse(decodes(flipped), "a byte changed")
        /// `good` with the 32-bit word at `at` set to `value` and its checksum written again.
        func resummed(_ at: Int, _ value: UInt32) -> [UInt8] {
            var bytes = good
            bytes.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt32.self)
                let sum = RegionEdgeIndex.crc32(UnsafeRawBufferPointer(rebasing: raw[RegionEdgeIndex.headerBytes...]))
                raw.storeBytes(of: sum.littleEndian, toByteOffset: 28, as: UInt32.self)
            }
            return bytes
        }
        let parts = RegionEdgeIndex.headerBytes + 8 * RegionEdgeIndex.partFields * plain.parts
        let bandOffsets = good.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 32, as: UInt32.self)) }
        let firstBandEdge = parts + 4 * bandOffsets
        XCTAssertTrue(decodes(resummed(firstBandEdge, 1)), "an edge in bounds, checksum written again")
        XCTAssertFalse(decodes(resummed(12, UInt32(plain.parts + 1))), "the part count")
        XCTAssertFalse(decodes(resummed(RegionEdgeIndex.headerBytes + 8 * 6, 3)), "the first part's first band offset")
        XCTAssertFalse(decodes(resummed(firstBandEdge, UInt32(plain.vertexCount))), "an edge past the last vertex")
        XCTAssertFalse(decodes(resummed(parts + 4, 0xFFFF_FFF0)), "a band offset that falls")
        let path = folder + "/" + RegionEdgeIndex.fileName
        try Data(flipped).write(to: URL(fileURLWithPath: path))
        _ = RegionEdgeIndex.load(for: plain, folder: folder)
        XCTAssertEqual(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), good, "built again over the damaged file")
    }

    func testDamagedFilesAreCorruptAndNameTheFile() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: TestData.directory.file(RegionIndex.fileName)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-region-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(RegionIndex.fileName).path
        func put(_ at: Int, _ value: UInt32, in data: inout Data) {
            withUnsafeBytes(of: value.littleEndian) { data.replaceSubrange(at..<(at + 4), with: $0) }
        }
        var damaged: [(String, Data)] = [
            ("truncated", good.prefix(good.count - 4)), ("empty", Data()), ("another magic", Data("GNPLACE1".utf8) + good.dropFirst(8)),
        ]
        var regionCount = good
        put(12, 7, in: &regionCount)
        damaged.append(("region count", regionCount))
        var partRegion = good
        put(64, 1_000_000, in: &partRegion)
        damaged.append(("a part's region", partRegion))
        var lineOrder = good
        let header = good.withUnsafeBytes { b in (12..<44).map { b.loadUnaligned(fromByteOffset: $0, as: UInt32.self) } }
        let linesAt = good.count - Int(header[28]) - (Int(header[0]) + Int(header[4]) + 2) * 4
        put(linesAt + 4, 0xFFFF_FF00, in: &lineOrder)
        damaged.append(("a region line out of order", lineOrder))
        var vertexCount = good
        put(28, 0xFFFF_FFFF, in: &vertexCount)
        damaged.append(("vertex count", vertexCount))
        for (what, bytes) in damaged {
            try bytes.write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try RegionIndex(path: path), what) { error in
                guard case .corrupt(let named, _) = error as? DataError else { return XCTFail("\(what): \(error)") }
                XCTAssertEqual(named, path, what)
            }
        }
    }
}

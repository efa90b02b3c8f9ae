import Foundation
import GeoNewsBenchmarking
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// A damaged archive is refused with the problem named, never read astray: every count and
/// offset of the header is checked on every read, and with `verify` the checksum and every
/// stored node, child, seed and label offset too.
final class ClusterArchiveDamageTests: XCTestCase {
    var archive: [UInt8] = []
    var sectionCount = 0

    /// The damage is drawn from this run's seed (``TestRandom``), printed by each test that
    /// draws: `GEONEWS_TEST_SEED=N swift test --filter ClusterArchiveDamageTests` draws a failed
    /// run's damage again.
    func seededRandom(_ test: String = #function) -> SplitMix64 { TestRandom.generator(for: "ClusterArchiveDamageTests.\(test)") }

    override func setUpWithError() throws {
        let index = try ClusterIndex(points: ReferenceClustering.samplePoints(count: 600, seed: 9))
        archive = try ArchiveBytes.archive(index, ArchiveBytes.labels(600))
        sectionCount = Int(word32(at: 12))
        _ = try ArchiveBytes.read(archive)
    }

    func word32(at offset: Int) -> UInt32 { archive[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    func word64(at offset: Int) -> UInt64 { archive[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) } }

    static func put<T: FixedWidthInteger>(_ value: T, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + $0.count, with: $0) }
    }

    /// Where section `s` starts and how many elements it has.
    func section(_ s: Int) -> (offset: Int, count: Int) {
        let entry = ClusterArchive.fixedHeaderSize + ClusterArchive.sectionEntrySize * s
        return (Int(word64(at: entry)), Int(word64(at: entry + 8)))
    }

    /// `damage` applied to a copy; with `resum` the checksum is made right again, so that
    /// only the table checks can find the damage.
    func assertRefused(
        saying words: String, resum: Bool = true, verify: Bool = true, _ damage: (inout [UInt8]) -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var bytes = archive
        damage(&bytes)
        if resum, bytes.count >= 24 {
            let sum = ArchiveBytes(bytes)
            Self.put(ClusterArchive.checksum(of: sum.view), at: 16, in: &bytes)
        }
        do {
            _ = try ArchiveBytes.read(bytes, verify: verify)
            XCTFail("the damaged archive was read; expected \(words)", file: file, line: line)
        } catch {
            XCTAssertTrue(error.description.contains(words), "\(error)", file: file, line: line)
        }
    }

    func testHeaderDamageIsNamed() {
        assertRefused(saying: "bad magic", resum: false) { $0 = [] }
        assertRefused(saying: "bad magic", resum: false) { $0[0] = UInt8(ascii: "X") }
        assertRefused(saying: "the header gives a size", resum: false) { $0.removeLast(8) }
        assertRefused(saying: "the header gives a size", resum: false) { $0 += [0, 0, 0, 0, 0, 0, 0, 0] }
        assertRefused(saying: "sections; expected", resum: false) { Self.put(UInt32(9), at: 12, in: &$0) }
        assertRefused(saying: "sections; expected", resum: false) { Self.put(UInt32.max, at: 12, in: &$0) }
        assertRefused(saying: "newer than this build", resum: false) { Self.put(ClusterArchive.formatVersion + 1, at: 8, in: &$0) }
    }

    func testOlderFormatIsToldApart() {
        var bytes = archive
        Self.put(UInt32(0), at: 8, in: &bytes)
        XCTAssertThrowsError(try ArchiveBytes.read(bytes)) { XCTAssertEqual($0 as? ClusterArchiveError, .olderFormat(0)) }
    }

    func testAnyChangedByteFailsTheChecksum() {
        var random = seededRandom()
        for _ in 0..<50 {
            let at = Int.random(in: 24..<archive.count, using: &random)
            assertRefused(saying: "checksum mismatch", resum: false) { $0[at] ^= UInt8.random(in: 1...255, using: &random) }
        }
    }

    func testSectionsOutsideTheFileAreRefused() {
        let entry = { (s: Int) in ClusterArchive.fixedHeaderSize + ClusterArchive.sectionEntrySize * s }
        // Even unverified, as when a trusted file is mapped again: the header is always checked.
        for verify in [false, true] {
            assertRefused(saying: "lies outside the file", verify: verify) { Self.put(UInt64(1) << 40, at: entry(7), in: &$0) }
            assertRefused(saying: "lies outside the file", verify: verify) { Self.put(UInt64.max / 3, at: entry(14) + 8, in: &$0) }
            assertRefused(saying: "lies outside the file", verify: verify) { Self.put(UInt64(3), at: entry(1), in: &$0) }
            assertRefused(saying: "-byte elements", verify: verify) { Self.put(UInt32(4), at: entry(7) + 16, in: &$0) }
            assertRefused(saying: "elements, not", verify: verify) { [c = section(7).count] in
                Self.put(UInt64(c - 1), at: entry(7) + 8, in: &$0)
            }
        }
    }

    func testSettingsOutOfRangeAreRefused() {
        let settings = section(0).offset
        assertRefused(saying: "maxZoom 9999 is above 254") { Self.put(UInt64(9999), at: settings + 8, in: &$0) }
        assertRefused(saying: "levels in") { Self.put(UInt64(5), at: settings + 64, in: &$0) }
        assertRefused(saying: "cluster count") { Self.put(UInt64(1) << 40, at: settings + 56, in: &$0) }
        assertRefused(saying: "option radius") { Self.put((-1.0).bitPattern, at: settings + 24, in: &$0) }
        assertRefused(saying: "grid exponent 31") { [s = section(15).offset] in $0[s] = 31 }
    }

    func testTablesThatWouldReadAstrayAreRefused() {
        let n = 600
        let c = section(11).count
        assertRefused(saying: "past the \(n + c) nodes") { [s = section(16 + 2 * 3)] in
            Self.put(UInt32(n + c), at: s.offset, in: &$0)
        }
        assertRefused(saying: "not made before it") { [s = section(14)] in Self.put(UInt32(n + c - 1), at: s.offset, in: &$0) }
        assertRefused(saying: "past the \(n) points") { [s = section(10)] in Self.put(UInt32(n), at: s.offset + 4 * 5, in: &$0) }
        assertRefused(saying: "child starts run") { [s = section(13)] in Self.put(UInt32(1), at: s.offset, in: &$0) }
        assertRefused(saying: "outside the unit square") { [s = section(7)] in
            Self.put(Double.nan.bitPattern, at: s.offset + 8 * 2, in: &$0)
        }
        assertRefused(saying: "the id of point 4 ends at byte") { [s = section(2)] in
            Self.put(UInt64(1) << 50, at: s.offset + 8 * 4, in: &$0)
        }
        assertRefused(saying: "formed at zoom 200") { [s = section(11)] in $0[s.offset] = 200 }
    }

    /// Random damage past the header with a checksum made right again: the read refuses it or
    /// gives an index whose every query still returns (never traps or reads astray).
    func testRandomDamageNeverTraps() throws {
        var random = seededRandom()
        let body = section(0).offset
        for _ in 0..<120 {
            var bytes = archive
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: body..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let sum = ArchiveBytes(bytes)
            Self.put(ClusterArchive.checksum(of: sum.view), at: 16, in: &bytes)
            guard let (index, labels) = try? ArchiveBytes.read(bytes) else { continue }
            for zoom in 0...17 {
                let features = try index.clusters(in: .world, zoom: Double(zoom))
                _ = try? index.featureCollection(features, labels: labels)
                _ = try? index.vectorTile(z: min(zoom, 3), x: 0, y: 0, labels: labels)
                for case .cluster(let id) in features.prefix(5).map(\.kind) {
                    _ = try? index.leaves(of: id, limit: .max)
                    _ = try? index.children(of: id)
                }
            }
        }
    }
}

/// A cluster index and its points' labels in one flat binary form, written once and then read
/// in place from mapped memory: reading makes views of the bytes (``FlatTable``), never heap
/// copies, so an index of a million points costs only the pages its queries touch.
///
/// Little-endian throughout; every section starts on an 8-byte boundary, padded with zeros.
///
/// ```
/// offset  size
///      0     8  magic "GNCLUSTR"
///      8     4  format version (ClusterArchive.formatVersion)
///     12     4  section count S (16 + 2 × levels)
///     16     8  checksum of the whole file, these 8 bytes read as 0 (ClusterArchive.checksum)
///     24     8  file size in bytes
///     32  24×S  per section: offset (8), element count (8), element size in bytes (4), 0 (4)
///               sections
/// ```
///
/// Sections, in this order:
/// 0. settings, `UInt64` × 9: minZoom, maxZoom, minPoints, radius (Double bits), extent
///    (Double bits), wraps the antimeridian (0 or 1), points n, clusters c, levels L
/// 1. the points, latitude then longitude in degrees (`Double` × 2 each)
/// 2. id ends (`UInt64` × n) and 3. id bytes (UTF-8): id p runs from end p − 1 (0 for the
///    first) to end p; 4. name ends and 5. name bytes likewise; 6. has a name (`UInt8` × n)
/// 7–10. the node table (n + c each): x, y (`Double`, Web Mercator), point count, seed (`UInt32`)
/// 11–14. per cluster: zoom (`UInt8`), latitude (`Double`); child starts (`UInt32` × c + 1);
///    children (`UInt32`)
/// 15. per level: the cell grid's exponent (`UInt8` × L)
/// 16 + 2l, 17 + 2l. level l: its nodes in grid order (`UInt32`), and for small levels their
///    x, y pairs (`Double`; empty for the others)
public enum ClusterArchive {
    static let magic: [UInt8] = Array("GNCLUSTR".utf8)
    /// Raised whenever the layout changes; a reader meets an older file as
    /// ``ClusterArchiveError/olderFormat(_:)`` and rebuilds it from the points.
    public static let formatVersion: UInt32 = 1
    static let fixedHeaderSize = 32
    static let sectionEntrySize = 24
    static let settingsCount = 9
    /// Sections before the per-level ones.
    static let fixedSections = 16

    enum Section: Int {
        case settings, points, idEnds, idBytes, nameEnds, nameBytes, hasName
        case nodeX, nodeY, nodeCount, nodeSeed, clusterZoom, clusterLatitude, childStart, childNodes
        case gridExponents
    }

    static func headerSize(sections: Int) -> Int { fixedHeaderSize + sectionEntrySize * sections }

    /// `n` rounded up to a multiple of 8.
    static func aligned(_ n: Int) -> Int { (n + 7) & ~7 }

    /// A 64-bit checksum of 8-byte words: each is folded in with a multiply and a rotation, so
    /// that every bit of every word reaches the result. Fast enough to check a file of 100 MB
    /// in a few tens of milliseconds; it finds damage, it is not a defence against forgery.
    struct Checksum {
        private(set) var value: UInt64 = 0x9E37_79B9_7F4A_7C15
        private var words: UInt64 = 0

        /// Folds in `bytes` as words, the last one padded with zeros.
        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            var h = value
            let whole = bytes.count / 8
            for i in 0..<whole {
                h = Self.fold(h, bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
            }
            if bytes.count % 8 != 0 {
                var last: UInt64 = 0
                withUnsafeMutableBytes(of: &last) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(8 * whole)...])) }
                h = Self.fold(h, last)
            }
            words += UInt64((bytes.count + 7) / 8)
            value = h
        }

        mutating func update(word: UInt64) {
            value = Self.fold(value, word)
            words += 1
        }

        var final: UInt64 { (value ^ words) &* 0xFF51_AFD7_ED55_8CCD }

        @inline(__always)
        private static func fold(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let m = (h ^ UInt64(littleEndian: w)) &* 0x100_0000_01B3
            return m << 31 | m >> 33
        }
    }

    /// The checksum of a whole archive, its checksum field read as zero.
    static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var sum = Checksum()
        sum.update(UnsafeRawBufferPointer(rebasing: bytes[0..<16]))
        sum.update(word: 0)
        sum.update(UnsafeRawBufferPointer(rebasing: bytes[24...]))
        return sum.final
    }
}

/// Why bytes are not a usable ``ClusterArchive``. The caller names the file.
public enum ClusterArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Written by an older build; rebuild it from the points.
    case olderFormat(UInt32)
    /// Not an archive, or damaged: the reason says where.
    case damaged(String)

    public var description: String {
        switch self {
        case .olderFormat(let version):
            return "cluster archive format \(version) is older than this build's \(ClusterArchive.formatVersion)"
        case .damaged(let reason): return "damaged cluster archive: \(reason)"
        }
    }
}

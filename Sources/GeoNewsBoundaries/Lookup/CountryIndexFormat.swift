/// The on-disk layout of `country-index.bin`, shared by the writer and the reader.
///
/// Little-endian throughout; every section starts on an 8-byte boundary.
///
/// ```
/// offset size
///      0    8  magic "GNINDEX1"
///      8    4  format version (CountryIndexFormat.version)
///     12    4  number of countries (must equal the catalogue's)
///     16    8  FNV-1a 64 of the catalogue ids joined by "\n" (stale-catalogue check)
///     24    8  FNV-1a 64 of boundaries.bin (provenance)
///     32    8  checksum of every byte after the header (see CountryIndexFormat.checksum)
///     40    4  near-shore distance the sea flags were computed for, in metres
///     44    4  finest cell: 2^-depth degrees (must equal CountryIndexFormat.finestDepth)
///     48   8×3 section offsets: root, nodes, leaves
///     72   4×3 section element counts, same order
///     84    8  offset of the coast grid's marks (``CoastGrid/landMarks(of:)``, after the
///              leaves), or 0: a land index stores them, Natural Earth's does not
///     92    4  reserved, 0
///     96       sections
/// ```
///
/// The world is a 360 × 180 grid of 1° root cells (row-major from 90° S, 180° W). Each cell
/// slot is a `UInt32` whose top two bits say what it is:
/// - `0`: sea. Low bit 1 means land may lie within the near-shore distance; 0 means it cannot.
/// - `1`: wholly inside one country, whose catalogue index is in the low 30 bits.
/// - `2`: split into 2^k × 2^k equal cells, k = 1…4 (bits 28–29 hold k − 1); the low 28 bits
///   index the first of their 4^k slots in `nodes`, row-major from the south-west. A quadtree
///   is stored this way with its sparse levels kept at k = 1 and its dense ones merged, so a
///   lookup takes one step per merged group of levels instead of one per level.
/// - `3`: a border leaf; the low 30 bits are its offset in `leaves`, in 8-byte words.
///
/// Every cell edge lies on the 2^-finestDepth degree lattice, so a lookup finds its path with
/// integer bit tests on the position's lattice coordinates.
///
/// A leaf (`UInt64` words) holds each country's polygons clipped to the cell:
/// ```
/// word 0          group count
/// per group:
///   word          country (bits 0–15), ring count (bits 16–31), vertex count n (bits 32–63)
///   2n words      vertices, x then y, Double degrees exactly as GEOS clipped them: the rings
///                 one after another, each closed, and after every ring but the first the
///                 first ring's first vertex again, so the connecting edges come in pairs
///                 that cancel and one crossing-number pass covers all the rings
///   ring count    per ring, its first vertex and one past its last, UInt32 each (for the
///   words         distance search and the exact test, which take rings one by one)
/// ```
///
/// Format version 3 (``compactVersion``, the land index's) has the same header, root grid and
/// nodes, and leaves of `UInt32` words whose vertices lie on the 2^-16° lattice, each in one
/// word relative to its leaf's cell (a leaf slot holds its offset in 4-byte words):
/// ```
/// word 0          group count
/// words 1, 2      the leaf cell's south-west corner, in 2^-16° from 180° W and from 90° S
/// per group:
///   word          country (bits 0–15), ring count (bits 16–31)
///   word          vertex count n
///   n words       vertices: x (bits 0–15) and y (bits 16–31) in 2^-16° from the corner, the
///                 run laid out as in version 2; no leaf cell is wider than 1/2°, so both fit
///   ring count    per ring, its first vertex (bits 0–15) and one past its last (bits
///   words         16–31): a group's run holds at most 65,535 vertices
/// ```
/// A vertex is the corner plus its offset, exactly (both are multiples of 2^-16° under 256° in
/// size), so it is the same double a version-2 leaf of snapped vertices would store, in a
/// quarter of the bytes.
package enum CountryIndexFormat {
    package static let magic: [UInt8] = Array("GNINDEX1".utf8)
    /// Leaves of `UInt64` words with `Double` vertices (Natural Earth's index).
    package static let version: UInt32 = 2
    /// Leaves of `UInt32` words with vertices on the 2^-``compactUnitBits``° lattice (the land
    /// index).
    package static let compactVersion: UInt32 = 3
    /// A compact leaf's vertices count 2^-compactUnitBits degrees.
    package static let compactUnitBits = 16
    /// Words before a compact leaf's first group: the group count and the corner.
    package static let compactLeafHeaderWords = 3
    package static let headerSize = 96
    /// Where the header gives the offset of the coast grid's marks (0: none).
    package static let coastMarksOffset = 84
    package static let rootColumns = 360
    package static let rootRows = 180
    package static let sectionCount = 3
    /// Cells are never smaller than 2^-finestDepth degrees (about 110 m of latitude).
    package static let finestDepth = 10

    package enum Kind: UInt32 {
        case sea = 0
        case country = 1
        case node = 2
        case leaf = 3
    }

    package static let kindShift: UInt32 = 30
    package static let payloadMask: UInt32 = (1 << 30) - 1
    /// Sea slot value for water that may lie within the near-shore distance of land.
    package static let coastalSea: UInt32 = 1

    /// A split node's fan-out: bits 28–29 hold k − 1 for 2^k × 2^k children.
    package static let fanOutShift: UInt32 = 28
    package static let nodeIndexMask: UInt32 = (1 << 28) - 1
    package static let maximumFanOutBits = 4

    /// FNV-1a, 64-bit.
    package static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01b3
        }
        return h
    }

    /// Catalogue identity: FNV-1a of the ids joined by newlines.
    package static func catalogueHash(_ ids: [String]) -> UInt64 {
        var bytes = Array(ids.joined(separator: "\n").utf8)
        return bytes.withUnsafeMutableBytes { fnv1a(UnsafeRawBufferPointer($0)) }
    }

    /// A fast checksum over whole 64-bit words (four independent multiply–xor lanes, so it runs
    /// near memory speed); the length must be a multiple of 32, which the writer pads to.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        precondition(bytes.count % 32 == 0)
        let words = bytes.count / 8
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15, b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var c: UInt64 = 0x1656_67B1_9E37_79F9, d: UInt64 = 0x85EB_CA77_C2B2_AE63
        let m: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var i = 0
        while i < words {
            a = (a ^ bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* m
            b = (b ^ bytes.loadUnaligned(fromByteOffset: i * 8 + 8, as: UInt64.self)) &* m
            c = (c ^ bytes.loadUnaligned(fromByteOffset: i * 8 + 16, as: UInt64.self)) &* m
            d = (d ^ bytes.loadUnaligned(fromByteOffset: i * 8 + 24, as: UInt64.self)) &* m
            a ^= a >> 29; b ^= b >> 31; c ^= c >> 27; d ^= d >> 33
            i += 4
        }
        var h = a ^ (b &* 31) ^ (c &* 1009) ^ (d &* 65537) ^ UInt64(bytes.count)
        h ^= h >> 33
        h &*= m
        h ^= h >> 33
        return h
    }
}

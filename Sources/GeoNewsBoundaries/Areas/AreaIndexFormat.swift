/// The on-disk layout of `area-index.bin`, the index over the (country, zone) regions of
/// ``CountryAreaFile``, shared by the writer and the reader.
///
/// Little-endian throughout; every section starts on an 8-byte boundary.
///
/// ```
/// offset size
///      0    8  magic "GNAREAX1"
///      8    4  format version (AreaIndexFormat.version)
///     12    4  number of countries (must equal the catalogue's)
///     16    8  FNV-1a 64 of the catalogue ids joined by "\n" (stale-catalogue check)
///     24    8  FNV-1a 64 of the zone ids joined by "\n" (stale-zone check)
///     32    8  checksum of every byte after the header (CountryIndexFormat.checksum); checked
///              by `geonews-index --check` and at build, not at each load
///     40    4  number of regions
///     44    4  finest cell: 2^-depth degrees (must equal CountryIndexFormat.finestDepth)
///     48   8×4 section offsets: root, nodes, leaves, regions
///     80   4×4 section element counts, same order
///     96   32  reserved, 0
///    128       sections
/// ```
///
/// The root grid and the nodes are those of ``CountryIndexFormat`` (the same slot kinds, the
/// same merged quadtree); a whole-cell slot names a region instead of a country, and a sea slot
/// (no region: only where the zones leave a gap) is 0.
///
/// `regions` holds two `UInt32` per region: its country's catalogue index (`UInt32.max` for the
/// open ocean) and its zone's index in ``TimeZoneCatalogue/zones``.
///
/// A leaf (`UInt32` words) holds each region's polygons clipped to the cell:
/// ```
/// word 0          group count
/// per group:
///   word          region (bits 0–15), ring count (bits 16–31)
///   word          vertex count n of the run
///   2n words      vertices, x then y, in units of 2^-30° from the south-west corner of the
///                 1° root cell (so 0…2^30); bit 31 of x is set when the edge from this vertex
///                 to the next is a country edge: the region's country lies on one side only.
///                 The run is the rings one after another, each closed, and after every ring
///                 but the first the first ring's first vertex again (see ``LeafGroup``)
///   2 × ring count  per ring, its first vertex and one past its last
/// ```
enum AreaIndexFormat {
    static let magic: [UInt8] = Array("GNAREAX1".utf8)
    static let version: UInt32 = 1
    static let headerSize = 128
    static let sectionCount = 4
    static let fileName = "area-index.bin"
    /// The committed record of the built file's size and hashes (`geonews-index --check`).
    static let manifestName = "area-index.json"
    /// Vertex units per degree: 2^30 (about 0.1 mm).
    static let unitsPerDegree = Double(1 << 30)
    static let coordinateMask: UInt32 = (1 << 31) - 1
    static let countryEdgeBit: UInt32 = 1 << 31
    static let noCountry = UInt32.max

    /// Zone identity: FNV-1a of the ids joined by newlines.
    static func zoneHash(_ ids: [String]) -> UInt64 { CountryIndexFormat.catalogueHash(ids) }
}

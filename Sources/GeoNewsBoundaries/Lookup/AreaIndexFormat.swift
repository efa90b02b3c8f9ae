import GeoNewsTimeZones

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
/// open ocean) and its zone's index in ``/GeoNewsTimeZones/TimeZoneCatalogue/zones``, with bit 31 set when the
/// region is drawn around land that Natural Earth lacks (``CountryAreaFile/unmappedLandBit``).
///
/// A leaf (`UInt16` words; a leaf slot holds its offset in words) holds each region's
/// polygons clipped to the cell the leaf was built for:
/// ```
/// word 0          group count (bits 0–11), the cell's depth below the 1° grid (bits 12–15)
/// per group:
///   3 words       region, ring count, vertex count n of the run
///   2n words      vertices, x then y, in units of 2^-14 of the cell's side from its
///                 south-west corner (so 0…2^14; 2^-24° ≈ 7 mm in the finest cells); bit 15
///                 of x is set when the edge from this vertex to the next is a country edge:
///                 the region's country lies on one side only. The run is the rings one after
///                 another, each closed, and after every ring but the first the first ring's
///                 first vertex again (see ``LeafGroup``)
///   2 × ring count  per ring, its first vertex and one past its last
/// ```
/// A leaf stands for every merged cell it was repeated into; its depth gives back its own cell.
package enum AreaIndexFormat {
    package static let magic: [UInt8] = Array("GNAREAX1".utf8)
    package static let version: UInt32 = 3
    package static let headerSize = 128
    package static let sectionCount = 4
    package static let fileName = "area-index.bin"
    /// The committed record of the built file's size and hashes (`geonews-index --check`).
    package static let manifestName = "area-index.json"
    /// A leaf's vertices count units of 2^-unitBits of its cell's side.
    package static let unitBits = 14
    package static let coordinateMask: UInt16 = (1 << 15) - 1
    package static let countryEdgeBit: UInt16 = 1 << 15
    package static let groupCountMask: UInt16 = (1 << 12) - 1
    package static let depthShift: UInt16 = 12
    package static let noCountry = UInt32.max

    /// Zone identity: FNV-1a of the ids joined by newlines.
    package static func zoneHash(_ ids: [String]) -> UInt64 { CountryIndexFormat.catalogueHash(ids) }
}

import GeoNewsData
import GeoNewsTimeZones

/// `country-areas.bin`: the regions `CountryAreaSplitter` (in GeoNewsBoundaryBuilding) cuts the
/// time zones into, each a (country, zone) pair with its polygons as little-endian WKB, snapped
/// to a grid of 1e-7° so that an index over them can test points with exact integer arithmetic.
/// Built by `geonews-index --areas` into the build folder; the country index is built from it.
///
/// ```
/// "GNAREA02"  u32 count  u32 0
/// count × (i32 country (catalogue index, -1 for the open ocean), u32 zone, u64 offset, u64 length)
/// WKB blobs…
/// ```
/// Bit 31 of `zone` (``unmappedLandBit``) marks a region drawn around land that Natural Earth
/// lacks (see `CountryAreaSplitter`).
public struct CountryAreaFile: Sendable {
    public static let fileName = "country-areas.bin"
    /// Degrees of the grid every vertex lies on.
    public static let gridDegrees = 1e-7
    private static let magic = Array("GNAREA02".utf8)
    /// The bit of a region's zone word that marks it as drawn around land Natural Earth lacks.
    package static let unmappedLandBit: UInt32 = 1 << 31
    private static let entrySize = 24

    public let file: MappedFile
    public let count: Int

    public init(path: String) throws(DataError) {
        file = try MappedFile(path: path)
        guard file.bytes.count >= 16, Array(file.bytes[0..<8]) == Self.magic else {
            throw .corrupt(path: path, reason: "not a GeoNews country-area file (bad magic)")
        }
        count = Int(try file.integer(UInt32.self, at: 8))
        guard 16 + count * Self.entrySize <= file.bytes.count else {
            throw .corrupt(path: path, reason: "the region table runs past the end")
        }
    }

    /// Catalogue index of region `i`'s country, `nil` for the open ocean.
    public func country(_ i: Int) throws(DataError) -> Int? {
        let c = Int32(bitPattern: try file.integer(UInt32.self, at: 16 + i * Self.entrySize))
        return c < 0 ? nil : Int(c)
    }

    /// Index of region `i`'s zone in ``/GeoNewsTimeZones/TimeZoneCatalogue/zones``.
    public func zone(_ i: Int) throws(DataError) -> Int {
        Int(try file.integer(UInt32.self, at: 20 + i * Self.entrySize) & ~Self.unmappedLandBit)
    }

    /// Whether region `i` is drawn around land that Natural Earth lacks, so that its country
    /// holds throughout it (see ``CountryResolver/territorialSeaKm``).
    public func holdsUnmappedLand(_ i: Int) throws(DataError) -> Bool {
        try file.integer(UInt32.self, at: 20 + i * Self.entrySize) & Self.unmappedLandBit != 0
    }

    /// The WKB bytes of region `i`.
    public func wkb(_ i: Int) throws(DataError) -> UnsafeRawBufferPointer {
        let offset = Int(try file.integer(UInt64.self, at: 24 + i * Self.entrySize))
        let length = Int(try file.integer(UInt64.self, at: 32 + i * Self.entrySize))
        guard offset >= 16 + count * Self.entrySize, length > 0, offset + length <= file.bytes.count else {
            throw .corrupt(path: file.path, reason: "region \(i) lies outside the file")
        }
        return UnsafeRawBufferPointer(rebasing: file.bytes[offset..<(offset + length)])
    }

    /// The file's bytes for regions given as (country, zone, WKB).
    package static func encode(_ regions: [(country: Int?, zone: Int, unmappedLand: Bool, wkb: [UInt8])]) -> [UInt8] {
        var out = magic
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        put(UInt32(regions.count))
        put(UInt32(0))
        var offset = 16 + regions.count * entrySize
        for r in regions {
            put(Int32(r.country ?? -1))
            put(UInt32(r.zone) | (r.unmappedLand ? unmappedLandBit : 0))
            put(UInt64(offset))
            put(UInt64(r.wkb.count))
            offset += r.wkb.count
        }
        for r in regions { out += r.wkb }
        return out
    }
}

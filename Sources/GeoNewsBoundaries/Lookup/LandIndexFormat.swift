/// `land-index.bin`: OpenStreetMap's land polygons, each piece named by the country whose
/// region holds it, in ``CountryIndexFormat``'s layout with the compact leaves of format
/// version 3 (each vertex a 4-byte offset from its leaf's corner), so that ``CountryIndex`` reads it and the resolver measures the territorial sea, the
/// near-shore suggestion and `nearest` from it. Built by `geonews-index --land` from
/// `osm-land.wkb` (`Scripts/build_land.py`) and the area index; committed as
/// `Data/land-index.pack` (``LandIndexPack``) and recorded in `Data/land-index.json`.
///
/// Every vertex of its leaves is a multiple of 2^-``snapBits`` degrees (1.7 m at the equator),
/// which is what lets a leaf store it in 16 bits from its corner and the pack as an integer.
public enum LandIndexFormat {
    public static let fileName = "land-index.bin"
    /// The committed record of the built file's size and checksum.
    public static let recordName = "land-index.json"
    /// The land polygons it is built from, in the build folder: one little-endian WKB
    /// MultiPolygon.
    public static let sourceName = "osm-land.wkb"
    /// Every leaf vertex is a multiple of 2^-snapBits degrees.
    public static let snapBits = CountryIndexFormat.compactUnitBits
}

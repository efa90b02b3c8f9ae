/// The layout of `places.bin`, the nearest-place index built from `Data/places.tsv.gz` on first
/// use (``PlaceIndex/load(from:)``) and kept beside the area index. Little-endian throughout.
///
/// ```
/// header (64 bytes)
///   0  magic "GNPLACE1"
///   8  u32 version (2), u32 place count N (at most maxPlaces)
///  16  u64 size of the places.tsv.gz it was built from
///  24  u32 that file's gzip CRC-32, u32 its gzip ISIZE (the 8-byte trailer: a checksum of the
///      whole text, read in one pread to tell a stale index without reading the source)
///  32  u32 country count C, u32 string bytes S
///  40  24 bytes of zeros
/// countries   C × 16: u8 ISO letter 1, u8 letter 2, u16 0, u32 first place, u32 place count, u32 0
/// points      N × 24: the unit vector (x, y, z: f64) of each place
/// records     N × 16: i32 latitude·1e5, i32 longitude·1e5, u32 GeoNames id, u32 population
/// strings     (2N + 1) × u32: the offsets of name i (entry 2i) and admin1 code i (2i + 1) in
///             the string bytes, and their end
/// global      N × u32: every place, as a k-d tree over all of them (the search with no country)
/// reach       720 × 1440 bits (row by row from -90°, column by column from -180°, each cell
///             1/4° square, least significant bit first): set where a place may lie within
///             ``reachKm`` of some point of the cell, so that the search with no country skips
///             the open sea's cells without descending the tree
/// padding to 8, then S string bytes (UTF-8)
/// ```
///
/// Places are grouped by country (the country table is sorted by code), and each country's
/// range is an implicit k-d tree: the median of a range is its node, split on x, y, z in turn by
/// depth, the lower half before it and the upper half after it. The tree over all places is the
/// same shape over the `global` indices.
enum PlaceIndexFormat {
    static let magic: [UInt8] = Array("GNPLACE1".utf8)
    static let version: UInt32 = 2
    static let headerBytes = 64
    static let countryBytes = 16
    static let pointBytes = 24
    static let recordBytes = 16
    /// More places than any GeoNames dump holds (cities500 has 234,908): bounds the counts read
    /// from a header before anything is sized by them.
    static let maxPlaces = 4_000_000
    static let maxStringBytes = 1 << 30
    /// The reach of the search with no country that the `reach` cells are marked for
    /// (``PlaceIndex/openSeaReachKm``), and the cells' size.
    static let reachKm = 50.0
    static let reachCellsPerDegree = 4
    static let reachRows = 180 * reachCellsPerDegree, reachColumns = 360 * reachCellsPerDegree
    static let reachBytes = reachRows * reachColumns / 8
    /// The file's name beside the area index.
    static let fileName = "places.bin"
    /// The source in the data folder.
    static let sourceName = "places.tsv.gz"

    /// Where each section starts, for `places` places, `countries` countries and `strings` bytes.
    struct Sections: Equatable {
        let countries: Int
        let points: Int
        let records: Int
        let stringOffsets: Int
        let global: Int
        let reach: Int
        let strings: Int
        let end: Int

        init(places: Int, countries: Int, stringBytes: Int) {
            self.countries = PlaceIndexFormat.headerBytes
            points = self.countries + countries * PlaceIndexFormat.countryBytes
            records = points + places * PlaceIndexFormat.pointBytes
            stringOffsets = records + places * PlaceIndexFormat.recordBytes
            global = stringOffsets + (2 * places + 1) * 4
            reach = global + places * 4
            strings = (reach + PlaceIndexFormat.reachBytes + 7) & ~7
            end = strings + stringBytes
        }
    }
}

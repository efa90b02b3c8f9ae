import GeoNewsGeodesy

/// The exact point-in-country index: a 1° world grid refined by a quadtree where borders and
/// coasts run, memory-mapped from `country-index.bin` with no parsing step.
///
/// A cell is sea, wholly inside one country (answered with no geometry), or a border leaf
/// holding each country's polygons clipped to it by GEOS; a point in a border leaf is settled
/// by a crossing-number test over those few edges. Answers equal GEOS's point-in-polygon test
/// on Natural Earth's polygons, except for points exactly on a border, which belong to exactly
/// one side here (the west and south sides of an edge count as inside, as in PNPOLY).
///
/// Immutable and lock-free: share one instance across threads.
public final class CountryIndex: @unchecked Sendable {
    // Sendable: every stored property is a read-only view of the private, read-only mapping.
    /// Number of countries the index was built for (equals the catalogue's).
    public let countryCount: Int
    /// The near-shore distance, in kilometres, that the sea cells were flagged for.
    public let nearShoreKm: Double
    let file: MappedFile
    /// The original polygons, for points within rounding of a clipped edge (see `groupContains`).
    let boundaries: BoundaryFile?
    let root: UnsafeBufferPointer<UInt32>
    let nodes: UnsafeBufferPointer<UInt32>
    let leaves: UnsafeBufferPointer<UInt32>
    let groupCountry: UnsafeBufferPointer<UInt32>
    let groupRings: UnsafeBufferPointer<UInt32>
    let rings: UnsafeBufferPointer<UInt32>
    let vertices: UnsafeBufferPointer<Double>

    /// Maps and checks `country-index.bin`.
    ///
    /// - Parameters:
    ///   - catalogueIDs: the catalogue's ids in order; an index built for another catalogue is
    ///     rejected as stale.
    ///   - boundaries: the original polygons (`boundaries.bin`), used to settle the rare point
    ///     within rounding of a clipped edge exactly; without them such a point is settled on
    ///     the clipped rings with exact arithmetic.
    ///   - verifyChecksum: check every byte against the stored checksum (a few milliseconds;
    ///     on by default, so a damaged file is an error and never a wrong answer).
    public init(path: String, catalogueIDs: [String], boundaries: BoundaryFile? = nil, verifyChecksum: Bool = true) throws(DataError) {
        self.boundaries = boundaries
        let f = try MappedFile(path: path)
        file = f
        let b = f.bytes
        typealias F = CountryIndexFormat
        guard b.count >= F.headerSize, Array(b[0..<8]) == F.magic else {
            throw .corrupt(path: path, reason: "not a GeoNews country index (bad magic)")
        }
        let version = try f.integer(UInt32.self, at: 8)
        guard version == F.version else {
            throw .stale(path: path, reason: "index format \(version), this build reads \(F.version)")
        }
        countryCount = Int(try f.integer(UInt32.self, at: 12))
        guard countryCount == catalogueIDs.count,
              try f.integer(UInt64.self, at: 16) == F.catalogueHash(catalogueIDs) else {
            throw .stale(path: path, reason: "built for a different countries.json")
        }
        if verifyChecksum {
            let body = UnsafeRawBufferPointer(rebasing: b[F.headerSize...])
            guard body.count % 32 == 0, F.checksum(body) == (try f.integer(UInt64.self, at: 32)) else {
                throw .corrupt(path: path, reason: "checksum mismatch")
            }
        }
        nearShoreKm = Double(try f.integer(UInt32.self, at: 40)) / 1000
        var offsets: [Int] = []
        var counts: [Int] = []
        for s in 0..<F.sectionCount {
            offsets.append(Int(try f.integer(UInt64.self, at: 48 + 8 * s)))
            counts.append(Int(try f.integer(UInt32.self, at: 104 + 4 * s)))
        }
        func section<T>(_ i: Int, _ type: T.Type) throws(DataError) -> UnsafeBufferPointer<T> {
            let start = offsets[i], bytes = counts[i] * MemoryLayout<T>.stride
            guard start % 8 == 0, start >= F.headerSize, start + bytes <= b.count else {
                throw .corrupt(path: path, reason: "section \(i) lies outside the file")
            }
            return UnsafeBufferPointer(start: (b.baseAddress! + start).assumingMemoryBound(to: T.self), count: counts[i])
        }
        root = try section(0, UInt32.self)
        nodes = try section(1, UInt32.self)
        leaves = try section(2, UInt32.self)
        groupCountry = try section(3, UInt32.self)
        groupRings = try section(4, UInt32.self)
        rings = try section(5, UInt32.self)
        vertices = try section(6, Double.self)
        guard root.count == F.rootColumns * F.rootRows, nodes.count % 4 == 0,
              leaves.last.map(Int.init) == groupCountry.count, groupRings.count == groupCountry.count + 1,
              groupRings.last.map(Int.init) == rings.count - 1, rings.last.map(Int.init).map({ $0 * 2 }) == vertices.count else {
            throw .corrupt(path: path, reason: "section sizes disagree")
        }
    }

    /// The catalogue index of the country containing the position, or `nil` at sea.
    ///
    /// Natural Earth's polygons stop a hair short of the poles and the antimeridian
    /// (Antarctica at -89.99999999999994°, Chukotka at -179.99999999999991°), so positions
    /// within ``edgeNudge`` degrees (about 1 cm) of them are looked up that far inside: the
    /// South Pole is in Antarctica, and a point on the antimeridian belongs to the land on
    /// either side of it, east first. Everywhere else the answer is the polygons' own.
    /// NaN gives `nil`.
    public func countryIndex(at position: Coordinate) -> Int? {
        let e = Self.edgeNudge
        let lat = min(max(position.latitude, -90 + e), 90 - e)
        let lon = position.longitude
        // The common case is inlined here; the antimeridian (and NaN) path is out of line.
        let i = lon > -180 + e && lon < 180 - e
            ? lookup(longitude: lon, latitude: lat)
            : antimeridianLookup(longitude: lon, latitude: lat)
        return i < 0 ? nil : Int(i)
    }

    @inline(never)
    private func antimeridianLookup(longitude lon: Double, latitude lat: Double) -> Int32 {
        guard lon == lon else { return -1 }
        let e = Self.edgeNudge
        let i = lookup(longitude: -180 + e, latitude: lat)
        return i >= 0 ? i : lookup(longitude: 180 - e, latitude: lat)
    }

    /// How close to a pole or the antimeridian, in degrees, a position is looked up from just
    /// inside (1e-7°, about 1 cm).
    public static let edgeNudge = 1e-7

    /// The polygons' exact answer: the catalogue index, or -1 at sea. Longitude 180 is read as
    /// -180; latitudes beyond ±90 are clamped into the edge rows.
    @inline(__always)
    func lookup(longitude lonIn: Double, latitude latIn: Double) -> Int32 {
        guard lonIn == lonIn, latIn == latIn else { return -1 }
        let lon = lonIn >= 180 ? -180 : lonIn
        let lat = latIn
        let col = Self.rootCell(lon, origin: 180, count: CountryIndexFormat.rootColumns)
        let row = Self.rootCell(lat, origin: 90, count: CountryIndexFormat.rootRows)
        var slot = root[row &* CountryIndexFormat.rootColumns &+ col]
        var x0 = Double(col - 180), y0 = Double(row - 90), size = 1.0
        while true {
            switch slot >> CountryIndexFormat.kindShift {
            case 0:
                return -1
            case 1:
                return Int32(slot & CountryIndexFormat.payloadMask)
            case 2:
                size *= 0.5
                let east = lon >= x0 + size, north = lat >= y0 + size
                if east { x0 += size }
                if north { y0 += size }
                let child = Int(slot & CountryIndexFormat.payloadMask) &* 4 &+ (north ? 2 : 0) &+ (east ? 1 : 0)
                slot = nodes[child]
            default:
                return leafLookup(Int(slot & CountryIndexFormat.payloadMask), x: lon, y: lat)
            }
        }
    }

    /// `floor(v) + origin` clamped to `0 ..< count`, for a non-NaN `v`, without a call to libm's
    /// `floor` (x86-64's baseline has no rounding instruction, and this runs on every lookup).
    @inline(__always)
    static func rootCell(_ v: Double, origin: Double, count: Int) -> Int {
        // v + origin rounds to within [floor(v) + origin, floor(v) + origin + 1]; clamping before
        // the conversion keeps it in range, and truncation is floor for what is left.
        var i = Int(min(max(v + origin, 0), Double(count - 1)))
        // The sum rounded up onto the next integer (v = -1e-20 gives 180): step back. Both sides
        // of the comparison are exact.
        if i > 0 && Double(i) - origin > v { i &-= 1 }
        return i
    }

    @inline(__always)
    private func leafLookup(_ leaf: Int, x: Double, y: Double) -> Int32 {
        var g = Int(leaves[leaf])
        let end = Int(leaves[leaf &+ 1])
        while g < end {
            if groupContains(g, x: x, y: y) { return Int32(groupCountry[g]) }
            g &+= 1
        }
        return -1
    }

    /// Crossing-number test over the rings of one group. The comparison `x < x-intercept` is
    /// written as a sign of a 2×2 determinant, so no division rounds it.
    ///
    /// Clipping moved the ends of cut edges onto the cell's sides, rounded to the nearest
    /// double, which can tilt a short piece of edge by up to ~1e-14° over its length. A point
    /// that close to an edge's line (see ``nearEdgeDeterminant``) is settled instead by
    /// ``ExactPolygonTest`` on the country's original polygons, with exact arithmetic; no
    /// random point has come that close, vertex-adjacent probes do.
    @inline(__always)
    func groupContains(_ g: Int, x: Double, y: Double) -> Bool {
        var inside = false
        var closest = Double.infinity
        let v = vertices.baseAddress!
        for r in Int(groupRings[g])..<Int(groupRings[g &+ 1]) {
            let start = Int(rings[r]), end = Int(rings[r &+ 1])
            var xi = v[2 &* start], yi = v[2 &* start &+ 1]
            var k = start &+ 1
            while k < end {
                let xj = v[2 &* k], yj = v[2 &* k &+ 1]
                if (yi > y) != (yj > y) {
                    let dx = xj - xi, dy = yj - yi
                    let det = dx * (y - yi) - (x - xi) * dy
                    closest = min(closest, abs(det))
                    if (yj > yi) == (det > 0) { inside.toggle() }
                }
                xi = xj
                yi = yj
                k &+= 1
            }
        }
        return closest > Self.nearEdgeDeterminant ? inside : nearEdgeContains(g, x: x, y: y)
    }

    /// |det| at or below which a point counts as within rounding of an edge's line. Clipped
    /// edges lie inside their cell (at most 1° a side), so a cut end rounded by one ulp
    /// (< 3e-14 at 180°) moves the line by less than 3e-14 · (1 + 1/|edge|) at the point, which
    /// is |det| < 3e-14 · (|edge| + 1) < 1e-13; rounding of det itself is < 1e-15.
    static let nearEdgeDeterminant = 3e-13

    /// The exact answer for a point within rounding of one of a group's edges: the country's
    /// original polygons when the index was opened with them, else the group's own rings with
    /// exact orientation signs.
    @inline(never)
    private func nearEdgeContains(_ g: Int, x: Double, y: Double) -> Bool {
        if let boundaries, let wkb = try? boundaries.wkb(Int(groupCountry[g])) {
            return withExtendedLifetime(boundaries) { ExactPolygonTest.contains(wkb: wkb, x: x, y: y) }
        }
        var inside = false
        for r in Int(groupRings[g])..<Int(groupRings[g + 1]) {
            let ring = UnsafeRawPointer(vertices.baseAddress! + 2 * Int(rings[r]))
            if ExactPolygonTest.ringParity(x: x, y: y, ring: ring, count: Int(rings[r + 1]) - Int(rings[r])) { inside.toggle() }
        }
        return inside
    }

    /// True when the sea cell holding the position may lie within ``nearShoreKm`` of land.
    /// False only when land is certainly farther.
    func mayBeNearShore(longitude lonIn: Double, latitude: Double) -> Bool {
        let lon = lonIn >= 180 ? -180 : lonIn
        let col = min(max(Int(lon.rounded(.down)) + 180, 0), CountryIndexFormat.rootColumns - 1)
        let row = min(max(Int(latitude.rounded(.down)) + 90, 0), CountryIndexFormat.rootRows - 1)
        let slot = root[row * CountryIndexFormat.rootColumns + col]
        return !(slot >> CountryIndexFormat.kindShift == 0 && slot & 1 == 0)
    }
}

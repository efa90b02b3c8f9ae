import GeoNewsData
import GeoNewsGeodesy
import GeoNewsTimeZones

/// The exact point-in-region index over the (country, zone) regions of ``CountryAreaFile``:
/// one lookup gives the country whose land or territorial sea holds a position (none on the
/// open ocean) and its IANA time zone. Memory-mapped from `area-index.bin` with no parsing
/// step; the tree is ``CountryIndex``'s, the leaves hold compact vertices (see
/// ``AreaIndexFormat``).
///
/// A point in a border leaf is settled by a crossing-number test on the leaf's vertices, which
/// lie within half a unit, 2^-15 of the leaf's side (3.5 mm in the finest cells), of the
/// regions' own. Where that could decide otherwise than the
/// regions themselves — a point within a few units of an edge's line or of a vertex's latitude
/// — the region's own polygons in `country-areas.bin` decide with exact orientation signs (as
/// GEOS's robust predicates do), or, without that file, the leaf's rings with exact signs.
///
/// Immutable and lock-free: share one instance across threads.
public final class AreaIndex: @unchecked Sendable {
    // Sendable: every stored property is a read-only view of the private, read-only bytes.
    public let countryCount: Int
    public let regionCount: Int
    /// The bytes' owner (the mapping), kept alive with the index.
    private let owner: AnyObject?
    let bytes: UnsafeRawBufferPointer
    let root: UnsafeBufferPointer<UInt32>
    let nodes: UnsafeBufferPointer<UInt32>
    package let leaves: UnsafeBufferPointer<UInt16>
    let regions: UnsafeBufferPointer<UInt32>
    /// Where the index was read from, for error messages.
    let path: String
    /// The regions' own polygons, for points within rounding of a leaf's edge.
    let areas: CountryAreaFile?
    /// Per region of ``areas``, its polygons' edge runs, when the index was opened for a build
    /// that settles many points near edges (``ExactPolygonTest/EdgeRuns``).
    private let edgeRuns: [ExactPolygonTest.EdgeRuns]?

    /// Maps `area-index.bin` and checks its header: magic, version, the catalogue's and the
    /// zones' identity, and that every section lies inside the file. The checksum over every
    /// byte is checked by `geonews-index --check` and at build time, not here, so that loading
    /// costs a system call and touches one page.
    ///
    /// - Parameters:
    ///   - catalogueIDs: the catalogue's ids in order; an index built for another is stale.
    ///   - zoneIDs: ``/GeoNewsTimeZones/TimeZoneCatalogue/zones``' ids in order; likewise.
    ///   - areas: the regions' own polygons, to settle points within rounding of an edge
    ///     exactly; without them such points are settled on the leaf's rings.
    public convenience init(path: String, catalogueIDs: [String], zoneIDs: [String], areas: CountryAreaFile? = nil) throws(DataError) {
        let file = try MappedFile(path: path, access: .random)
        try self.init(bytes: file.bytes, owner: file, path: path, catalogueIDs: catalogueIDs, zoneIDs: zoneIDs, areas: areas)
    }

    /// - Parameter edgeRuns: index the edges of `areas`' polygons first (a second or so, a few
    ///   MB), for a build that settles many points near the regions' edges; the answers are the
    ///   same.
    package init(
        bytes b: UnsafeRawBufferPointer, owner: AnyObject?, path: String, catalogueIDs: [String], zoneIDs: [String],
        areas: CountryAreaFile?, edgeRuns: Bool = false
    ) throws(DataError) {
        self.owner = owner
        self.areas = areas
        if edgeRuns, let areas {
            var runs: [ExactPolygonTest.EdgeRuns] = []
            for r in 0..<areas.count { runs.append(ExactPolygonTest.EdgeRuns(wkb: try areas.wkb(r))) }
            self.edgeRuns = runs
        } else {
            self.edgeRuns = nil
        }
        self.path = path
        bytes = b
        typealias F = AreaIndexFormat
        func integer<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) throws(DataError) -> T {
            guard offset + MemoryLayout<T>.size <= b.count else { throw .corrupt(path: path, reason: "truncated at byte \(offset)") }
            return T(littleEndian: b.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        guard b.count >= F.headerSize, Array(b[0..<8]) == F.magic else {
            throw .corrupt(path: path, reason: "not a GeoNews area index (bad magic)")
        }
        let version = try integer(UInt32.self, at: 8)
        guard version == F.version else {
            throw .stale(path: path, reason: "area index format \(version), this build reads \(F.version)")
        }
        countryCount = Int(try integer(UInt32.self, at: 12))
        guard countryCount == catalogueIDs.count, try integer(UInt64.self, at: 16) == CountryIndexFormat.catalogueHash(catalogueIDs) else {
            throw .stale(path: path, reason: "built for a different countries.json")
        }
        guard try integer(UInt64.self, at: 24) == F.zoneHash(zoneIDs) else {
            throw .stale(path: path, reason: "built for a different timezones.json")
        }
        regionCount = Int(try integer(UInt32.self, at: 40))
        guard try integer(UInt32.self, at: 44) == CountryIndexFormat.finestDepth else {
            throw .corrupt(path: path, reason: "finest cell is not 2^-\(CountryIndexFormat.finestDepth)°")
        }
        var offsets: [Int] = [], counts: [Int] = []
        for s in 0..<F.sectionCount {
            offsets.append(Int(try integer(UInt64.self, at: 48 + 8 * s)))
            counts.append(Int(try integer(UInt32.self, at: 48 + 8 * F.sectionCount + 4 * s)))
        }
        func section<T>(_ i: Int, _ type: T.Type) throws(DataError) -> UnsafeBufferPointer<T> {
            let start = offsets[i], size = counts[i] * MemoryLayout<T>.stride
            guard start % 8 == 0, start >= F.headerSize, start + size <= b.count else {
                throw .corrupt(path: path, reason: "section \(i) lies outside the file")
            }
            return UnsafeBufferPointer(start: (b.baseAddress! + start).assumingMemoryBound(to: T.self), count: counts[i])
        }
        root = try section(0, UInt32.self)
        nodes = try section(1, UInt32.self)
        leaves = try section(2, UInt16.self)
        regions = try section(3, UInt32.self)
        guard root.count == CountryIndexFormat.rootColumns * CountryIndexFormat.rootRows, regions.count == 2 * regionCount else {
            throw .corrupt(path: path, reason: "section sizes disagree")
        }
        if let areas, areas.count != regionCount {
            throw .stale(path: areas.file.path, reason: "\(areas.count) regions, the area index has \(regionCount)")
        }
    }

    /// Gives back the resident pages of the mapping after a scan of all of it (see
    /// ``/GeoNewsData/MappedFile/releaseResidentPages()``); lookups touch only the pages they need.
    func releaseResidentPages() {
        (owner as? MappedFile)?.releaseResidentPages()
    }

    /// Runs `scan`, which reads every page of the index, reading ahead, and leaves the page cache
    /// as it found it (``/GeoNewsData/PageCache/leavingAsFound(_:_:)``): the lookups after it
    /// read their own pages, one fault each, as before it.
    func scanningWhole<T>(_ scan: () -> T) -> T {
        guard let file = owner as? MappedFile else { return scan() }
        file.advise(.normal)
        defer { file.advise(.random) }
        return PageCache.leavingAsFound(file) { _ in scan() }
    }

    /// The catalogue index of region `r`'s country, `nil` for the open ocean.
    @inline(__always)
    public func country(ofRegion r: Int) -> Int? {
        let c = regions[2 &* r]
        return c == AreaIndexFormat.noCountry ? nil : Int(c)
    }

    /// The index in ``/GeoNewsTimeZones/TimeZoneCatalogue/zones`` of region `r`'s zone.
    @inline(__always)
    public func zone(ofRegion r: Int) -> Int { Int(regions[2 &* r &+ 1] & ~CountryAreaFile.unmappedLandBit) }

    /// Whether region `r` is drawn around land that Natural Earth lacks (Bạch Long Vĩ), as the
    /// area split marks it. The resolver no longer reads the mark: such land is in the land
    /// index, with its 12 miles.
    @inline(__always)
    public func holdsUnmappedLand(region r: Int) -> Bool { regions[2 &* r &+ 1] & CountryAreaFile.unmappedLandBit != 0 }

    /// The region holding the position, or `nil` where no region does (a gap between zones,
    /// or NaN). Positions within ``CountryIndex/edgeNudge`` of a pole or the antimeridian are
    /// looked up that far inside, east of the antimeridian first, as ``CountryIndex`` does.
    @inline(__always)
    public func region(at position: Coordinate) -> Int? {
        let e = CountryIndex.edgeNudge
        let lat = min(max(position.latitude, -90 + e), 90 - e)
        let lon = position.longitude
        let r = lon > -180 + e && lon < 180 - e ? lookup(longitude: lon, latitude: lat) : antimeridianLookup(longitude: lon, latitude: lat)
        return r < 0 ? nil : Int(r)
    }

    @inline(never)
    private func antimeridianLookup(longitude lon: Double, latitude lat: Double) -> Int32 {
        guard lon == lon else { return -1 }
        let e = CountryIndex.edgeNudge
        let r = lookup(longitude: -180 + e, latitude: lat)
        return r >= 0 ? r : lookup(longitude: 180 - e, latitude: lat)
    }

    /// The region index, or -1. Longitude 180 is read as -180; latitudes beyond ±90 are
    /// clamped into the edge rows.
    @inline(__always)
    func lookup(longitude lonIn: Double, latitude lat: Double) -> Int32 {
        guard lonIn == lonIn, lat == lat else { return -1 }
        let lon = lonIn >= 180 ? -180 : lonIn
        typealias F = CountryIndexFormat
        let gx = CountryIndex.latticeIndex(lon, origin: 180, count: F.rootColumns)
        let gy = CountryIndex.latticeIndex(lat, origin: 90, count: F.rootRows)
        let slot = CellTreeWalk.descend(root: root, nodes: nodes, gx: gx, gy: gy)
        switch slot.kind {
        case .sea: return -1
        case .country: return Int32(slot.payload)
        default: return leafLookup(slot.payload, longitude: lon, latitude: lat, gx: gx, gy: gy)
        }
    }

    /// ``region(at:)`` from the finest slot over the position's lattice cell, already found
    /// (``CellTreeWalk/descend(root:nodes:gx:gy:)``'s answer, for a longitude off the
    /// antimeridian and the latitude clamped as ``region(at:)`` clamps it).
    @inline(__always)
    func region(in slot: CellSlot, longitude: Double, latitude: Double, gx: Int, gy: Int) -> Int? {
        let r: Int32
        switch slot.kind {
        case .sea: r = -1
        case .country: r = Int32(slot.payload)
        default: r = leafLookup(slot.payload, longitude: longitude, latitude: latitude, gx: gx, gy: gy)
        }
        return r < 0 ? nil : Int(r)
    }

    @inline(__always)
    private func leafLookup(_ offset: Int, longitude: Double, latitude: Double, gx: Int, gy: Int) -> Int32 {
        let cell = AreaLeafCell(header: leaves[offset], gx: gx, gy: gy)
        let x = cell.x(longitude), y = cell.y(latitude)
        var groups = Int(leaves[offset] & AreaIndexFormat.groupCountMask)
        var p = offset &+ 1
        while groups > 0 {
            let group = AreaLeafGroup(leaves, at: p)
            let run = Self.crossings(group.vertices, 0..<group.vertexCount, x: x, y: y)
            let inside = run.doubtful ? exactlyContains(group, longitude: longitude, latitude: latitude, x: x, y: y) : run.odd
            if inside { return Int32(group.region) }
            p = group.next
            groups &-= 1
        }
        return -1
    }

    /// The crossing parity of a ray from (x, y) eastwards with the path through `vertices`
    /// (x, y unit pairs) at positions `path`, and whether the point lies so near an edge's line
    /// or a vertex's latitude that the vertices' rounding could change the answer.
    ///
    /// Each vertex lies within half a unit of the region's own, which moves the determinant of
    /// an edge by at most half the sum of its differences' magnitudes (plus a second-order
    /// term below 1); the determinant's own rounding is below 2^-51 of its terms, and the
    /// point's units are exact to far below one unit.
    @inline(__always)
    static func crossings(_ v: UnsafeBufferPointer<UInt16>, _ path: Range<Int>, x: Double, y: Double) -> (odd: Bool, doubtful: Bool) {
        let mask = AreaIndexFormat.coordinateMask
        var odd = false, doubtful = false
        var xi = Double(v[2 &* path.lowerBound] & mask), yi = Double(v[2 &* path.lowerBound &+ 1])
        var k = path.lowerBound &+ 1
        while k < path.upperBound {
            let xj = Double(v[2 &* k] & mask), yj = Double(v[2 &* k &+ 1])
            if (yi > y) != (yj > y) {
                let a = (xj - xi) * (y - yi), b = (x - xi) * (yj - yi)
                let det = a - b
                let slack = abs(yj - yi) + abs(x - xi) + abs(x - xj) + 4 + 1e-15 * (abs(a) + abs(b))
                if abs(det) <= slack { doubtful = true }
                if (yj > yi) == (det > 0) { odd.toggle() }
            }
            if abs(yj - y) <= 1 { doubtful = true }
            xi = xj
            yi = yj
            k &+= 1
        }
        return (odd, doubtful)
    }

    /// The exact answer for a point near an edge of a group: the region's own polygons when the
    /// index was opened with them, else the group's rings with exact orientation signs.
    @inline(never)
    func exactlyContains(_ group: AreaLeafGroup, longitude: Double, latitude: Double, x: Double, y: Double) -> Bool {
        if let areas, let wkb = try? areas.wkb(group.region) {
            return withExtendedLifetime(areas) {
                if let edgeRuns {
                    ExactPolygonTest.contains(wkb: wkb, x: longitude, y: latitude, runs: edgeRuns[group.region])
                } else {
                    ExactPolygonTest.contains(wkb: wkb, x: longitude, y: latitude)
                }
            }
        }
        let v = group.vertices, mask = AreaIndexFormat.coordinateMask
        var inside = false
        for r in 0..<group.ringCount {
            let ring = group.ring(r)
            var xi = Double(v[2 * ring.lowerBound] & mask), yi = Double(v[2 * ring.lowerBound + 1])
            for k in (ring.lowerBound + 1)..<ring.upperBound {
                let xj = Double(v[2 * k] & mask), yj = Double(v[2 * k + 1])
                if (yi > y) != (yj > y) {
                    let det = ExactPolygonTest.orientation(xi, yi, xj, yj, x, y)
                    if det != 0 && (yj > yi) == (det > 0) { inside.toggle() }
                }
                xi = xj
                yi = yj
            }
        }
        return inside
    }
}

/// The cell a leaf was built for, from the leaf's depth and the position's lattice
/// coordinates: its vertices count units of 2^-14 of its side from its south-west corner.
struct AreaLeafCell {
    let x0: Double, y0: Double
    /// Units per degree: 2^(14 + depth).
    let scale: Double

    @inline(__always)
    init(header: UInt16, gx: Int, gy: Int) {
        let depth = Int(header >> AreaIndexFormat.depthShift)
        let drop = CountryIndexFormat.finestDepth &- depth
        let lattice = Double(1 << CountryIndexFormat.finestDepth)
        x0 = Double((gx &>> drop) &<< drop) / lattice - 180
        y0 = Double((gy &>> drop) &<< drop) / lattice - 90
        scale = Double(1 << (AreaIndexFormat.unitBits + depth))
    }

    /// The cell of side 2^-depth degrees that holds (`x`, `y`), both dyadic cell corners or inside.
    init(depth: Int, holding x: Double, y: Double) {
        let side = 1 / Double(1 << depth)
        x0 = (x / side).rounded(.down) * side
        y0 = (y / side).rounded(.down) * side
        scale = Double(1 << (AreaIndexFormat.unitBits + depth))
    }

    /// A longitude or latitude in the cell's units (exact but for the subtraction's rounding,
    /// far below a unit).
    @inline(__always) func x(_ longitude: Double) -> Double { (longitude - x0) * scale }
    @inline(__always) func y(_ latitude: Double) -> Double { (latitude - y0) * scale }
    @inline(__always) func longitude(_ x: UInt16) -> Double { x0 + Double(x & AreaIndexFormat.coordinateMask) / scale }
    @inline(__always) func latitude(_ y: UInt16) -> Double { y0 + Double(y) / scale }
}

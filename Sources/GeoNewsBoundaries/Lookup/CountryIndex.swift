import GeoNewsData
import GeoNewsGeodesy

/// The exact point-in-country index: a 1° world grid refined by a quadtree where borders and
/// coasts run, memory-mapped from `country-index.bin` with no parsing step.
///
/// A cell is sea, wholly inside one country (answered with no geometry), or a border leaf
/// holding each country's polygons clipped to it by GEOS; a point in a border leaf is settled
/// by a crossing-number test over those few edges. The descent is integer bit tests on the
/// position's 2^-10° lattice coordinates, one step per merged group of quadtree levels, and a
/// leaf's vertices lie next to its header, so a lookup touches few cache lines. Answers equal GEOS's point-in-polygon test
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
    /// Where the index was mapped from, for error messages.
    let path: String
    /// The original polygons, for points within rounding of a clipped edge (see `groupContains`).
    let boundaries: BoundaryFile?
    let root: UnsafeBufferPointer<UInt32>
    let nodes: UnsafeBufferPointer<UInt32>
    /// The leaves section: ``leafWordCount`` words of ``leafWordSize`` bytes, read by ``Leaf``
    /// and ``LeafGroup`` through byte offsets.
    let leaves: UnsafeRawBufferPointer
    let leafWordCount: Int
    /// True for format version 3's leaves (`UInt32` words, vertices on the 2^-16° lattice),
    /// false for version 2's (`UInt64` words, `Double` vertices).
    let compactLeaves: Bool
    /// Bytes per leaf word: 4 for compact leaves, 8 otherwise.
    var leafWordSize: Int { compactLeaves ? 4 : 8 }
    /// The coast grid's marks (``CoastGrid/landMarks(of:)``), which a land index stores after
    /// its leaves; `nil` for Natural Earth's index, whose grid reads them off the tree.
    package let coastMarks: UnsafeBufferPointer<UInt64>?

    /// Maps `country-index.bin` and checks its header: format version, catalogue hash, and that
    /// every section lies inside the file. The checksum of every byte and the layout walk are
    /// ``verify()``'s, run by `geonews-index --check` and the build, so a start reads only the
    /// pages its lookups touch.
    ///
    /// - Parameters:
    ///   - catalogueIDs: the catalogue's ids in order; an index built for another catalogue is
    ///     rejected as stale.
    ///   - boundaries: the original polygons (`boundaries.bin`), used to settle the rare point
    ///     within rounding of a clipped edge exactly; without them such a point is settled on
    ///     the clipped rings with exact arithmetic.
    ///   - access: how its pages are read: the resolver's land index `.random` (see
    ///     ``/GeoNewsData/MappedFile/Access``), a build's or a check's scans `.normal`.
    public init(
        path: String, catalogueIDs: [String], boundaries: BoundaryFile? = nil, access: MappedFile.Access = .normal
    ) throws(DataError) {
        self.path = path
        self.boundaries = boundaries
        let f = try MappedFile(path: path, access: access)
        file = f
        let b = f.bytes
        typealias F = CountryIndexFormat
        guard b.count >= F.headerSize, Array(b[0..<8]) == F.magic else {
            throw .corrupt(path: path, reason: "not a GeoNews country index (bad magic)")
        }
        let version = try f.integer(UInt32.self, at: 8)
        guard version == F.version || version == F.compactVersion else {
            throw .stale(path: path, reason: "index format \(version), this build reads \(F.version) and \(F.compactVersion)")
        }
        compactLeaves = version == F.compactVersion
        countryCount = Int(try f.integer(UInt32.self, at: 12))
        guard countryCount == catalogueIDs.count,
            try f.integer(UInt64.self, at: 16) == F.catalogueHash(catalogueIDs)
        else {
            throw .stale(path: path, reason: "built for a different countries.json")
        }
        nearShoreKm = Double(try f.integer(UInt32.self, at: 40)) / 1000
        guard try f.integer(UInt32.self, at: 44) == F.finestDepth else {
            throw .corrupt(path: path, reason: "finest cell is not 2^-\(F.finestDepth)°")
        }
        var offsets: [Int] = []
        var counts: [Int] = []
        for s in 0..<F.sectionCount {
            offsets.append(Int(try f.integer(UInt64.self, at: 48 + 8 * s)))
            counts.append(Int(try f.integer(UInt32.self, at: 48 + 8 * F.sectionCount + 4 * s)))
        }
        func section<T>(_ i: Int, _ type: T.Type, stride: Int = MemoryLayout<T>.stride) throws(DataError) -> UnsafeBufferPointer<T> {
            let start = offsets[i], bytes = counts[i] * stride
            guard start % 8 == 0, start >= F.headerSize, start + bytes <= b.count else {
                throw .corrupt(path: path, reason: "section \(i) lies outside the file")
            }
            return UnsafeBufferPointer(start: (b.baseAddress! + start).assumingMemoryBound(to: T.self), count: counts[i])
        }
        root = try section(0, UInt32.self)
        nodes = try section(1, UInt32.self)
        let leafSection = try section(2, UInt8.self, stride: compactLeaves ? 4 : 8)
        leaves = UnsafeRawBufferPointer(start: leafSection.baseAddress, count: counts[2] * (compactLeaves ? 4 : 8))
        leafWordCount = counts[2]
        guard root.count == F.rootColumns * F.rootRows else {
            throw .corrupt(path: path, reason: "section sizes disagree")
        }
        let marks = Int(try f.integer(UInt64.self, at: F.coastMarksOffset))
        if marks == 0 {
            coastMarks = nil
        } else {
            let words = CoastGrid.landMarkWords
            guard marks % 8 == 0, marks >= F.headerSize, marks <= b.count, words * 8 <= b.count - marks else {
                throw .corrupt(path: path, reason: "its coast marks lie outside the file")
            }
            coastMarks = UnsafeBufferPointer(start: (b.baseAddress! + marks).assumingMemoryBound(to: UInt64.self), count: words)
        }
    }

    /// Checks every byte against the stored checksum, then that every offset stays inside its
    /// section, every leaf keeps its rules (``leafProblem()``) and the coast marks a land index
    /// stores are its tree's (``coastMarksProblem()``), so even a file from a faulty
    /// writer cannot make a lookup read astray. It reads the whole file, so it is left to
    /// `geonews-index --check` and the build, not each start.
    public func verify() throws(DataError) {
        typealias F = CountryIndexFormat
        let b = file.bytes
        let body = UnsafeRawBufferPointer(rebasing: b[F.headerSize...])
        guard body.count % 32 == 0, F.checksum(body) == (try file.integer(UInt64.self, at: 32)) else {
            throw .corrupt(path: path, reason: "checksum mismatch")
        }
        if let reason = CellTreeWalk.layoutProblem(
            root: root, nodes: nodes, leafWords: leafWordCount, payloadCount: countryCount, payloadName: "country")
        {
            throw .corrupt(path: path, reason: reason)
        }
        if let problem = leafProblem() { throw .corrupt(path: path, reason: problem.description) }
        if let problem = coastMarksProblem() { throw .corrupt(path: path, reason: problem.description) }
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
        let i =
            lon > -180 + e && lon < 180 - e
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
    func lookup(longitude lonIn: Double, latitude lat: Double) -> Int32 {
        guard lonIn == lonIn, lat == lat else { return -1 }
        let lon = lonIn >= 180 ? -180 : lonIn
        typealias F = CountryIndexFormat
        let gx = Self.latticeIndex(lon, origin: 180, count: F.rootColumns)
        let gy = Self.latticeIndex(lat, origin: 90, count: F.rootRows)
        let slot = CellTreeWalk.descend(root: root, nodes: nodes, gx: gx, gy: gy)
        switch slot.kind {
        case .sea: return -1
        case .country: return Int32(slot.payload)
        default: return leafLookup(slot.payload, x: lon, y: lat)
        }
    }

    /// `floor(v · 2^finestDepth) + origin · 2^finestDepth`, clamped to the lattice of `count`
    /// degrees, for a non-NaN `v`: the position's cell on the finest lattice, from which every
    /// level of the tree takes its bits. Scaling by a power of two is exact, so each bit test
    /// is the exact comparison with a cell edge. No call to libm's `floor` (x86-64's baseline
    /// has no rounding instruction, and this runs on every lookup).
    @inline(__always)
    static func latticeIndex(_ degrees: Double, origin: Double, count: Int) -> Int {
        let scale = Double(1 << CountryIndexFormat.finestDepth)
        let v = degrees * scale, o = origin * scale
        // v + o rounds to within [floor(v) + o, floor(v) + o + 1]; clamping before the
        // conversion keeps it in range, and truncation is floor for what is left.
        var i = Int(min(max(v + o, 0), Double(count << CountryIndexFormat.finestDepth - 1)))
        // The sum rounded up onto the next integer (v = -1e-20 gives o): step back. Both sides
        // of the comparison are exact.
        if i > 0 && Double(i) - o > v { i &-= 1 }
        return i
    }

    /// ``countryIndex(at:)`` from the finest slot over the position's lattice cell, already
    /// found (as for ``AreaIndex/region(in:longitude:latitude:gx:gy:)``).
    @inline(__always)
    func countryIndex(in slot: CellSlot, longitude: Double, latitude: Double) -> Int? {
        let i: Int32
        switch slot.kind {
        case .sea: i = -1
        case .country: i = Int32(slot.payload)
        default: i = leafLookup(slot.payload, x: longitude, y: latitude)
        }
        return i < 0 ? nil : Int(i)
    }

    @inline(__always)
    private func leafLookup(_ offset: Int, x: Double, y: Double) -> Int32 {
        let leaf = Leaf(leaves, offset: offset, compact: compactLeaves)
        var p = leaf.first
        var groups = leaf.groupCount
        while groups > 0 {
            let group = leaf.group(at: p)
            if groupContains(group, x: x, y: y) { return Int32(group.country) }
            p = group.next
            groups &-= 1
        }
        return -1
    }

    /// Crossing-number test over a group's vertex run. The comparison `x < x-intercept` is
    /// written as a sign of a 2×2 determinant, so no division rounds it.
    ///
    /// Clipping moved the ends of cut edges onto the cell's sides, rounded to the nearest
    /// double, which can tilt a short piece of edge by up to ~1e-14° over its length. A point
    /// that close to an edge's line (see ``nearEdgeDeterminant``) is settled instead by
    /// ``nearEdgeContains(_:x:y:)``.
    @inline(__always)
    func groupContains(_ group: LeafGroup, x: Double, y: Double) -> Bool {
        let run = Self.crossings(group, 0..<group.vertexCount, x: x, y: y, passingVerticalEdgesThroughPoint: false)
        return run.closest > Self.nearEdgeDeterminant ? run.odd : nearEdgeContains(group, x: x, y: y)
    }

    /// The crossing parity of a ray from (x, y) eastwards with the path through a group's
    /// vertices at positions `path`, and the smallest |det| of an edge it crosses.
    ///
    /// - Parameter passingVerticalEdgesThroughPoint: leave out a vertical edge exactly through
    ///   the point, as the exact test leaves out every edge through the point; for a cut along
    ///   the cell's west side (points on a round longitude) that is the answer just east of it,
    ///   inside the cell.
    @inline(__always)
    static func crossings(
        _ group: LeafGroup, _ path: Range<Int>, x: Double, y: Double,
        passingVerticalEdgesThroughPoint: Bool
    ) -> (odd: Bool, closest: Double) {
        var odd = false
        var closest = Double.infinity
        var (xi, yi) = group.vertex(path.lowerBound)
        var k = path.lowerBound &+ 1
        while k < path.upperBound {
            let (xj, yj) = group.vertex(k)
            if (yi > y) != (yj > y) && !(passingVerticalEdgesThroughPoint && xi == x && xj == x) {
                let det = (xj - xi) * (y - yi) - (x - xi) * (yj - yi)
                closest = min(closest, abs(det))
                if (yj > yi) == (det > 0) { odd.toggle() }
            }
            xi = xj
            yi = yj
            k &+= 1
        }
        return (odd, closest)
    }

    /// |det| at or below which a point counts as within rounding of an edge's line. Clipped
    /// edges lie inside their cell (at most 1° a side), so a cut end rounded by one ulp
    /// (< 3e-14 at 180°) moves the line by less than 3e-14 · (1 + 1/|edge|) at the point, which
    /// is |det| < 3e-14 · (|edge| + 1) < 1e-13; rounding of det itself is < 1e-13.
    static let nearEdgeDeterminant = 3e-13

    /// The exact answer for a point within rounding of an edge's line in the vertex run.
    ///
    /// First the rings alone, without the connecting edges between them (a point on the line
    /// of one of those, common for round coordinates on a cell side, needs nothing more), and
    /// passing by vertical edges through the point (see ``crossings(_:_:x:y:passingVerticalEdgesThroughPoint:)``). If a
    /// ring's own edge is that close: the country's original polygons when the index was
    /// opened with them, else the group's rings with exact orientation signs.
    @inline(never)
    func nearEdgeContains(_ group: LeafGroup, x: Double, y: Double) -> Bool {
        var inside = false
        var closest = Double.infinity
        for r in 0..<group.ringCount {
            let ring = Self.crossings(group, group.ring(r), x: x, y: y, passingVerticalEdgesThroughPoint: true)
            if ring.odd { inside.toggle() }
            closest = min(closest, ring.closest)
        }
        if closest > Self.nearEdgeDeterminant { return inside }
        if let boundaries, let wkb = try? boundaries.wkb(group.country) {
            return withExtendedLifetime(boundaries) { ExactPolygonTest.contains(wkb: wkb, x: x, y: y) }
        }
        inside = false
        for r in 0..<group.ringCount {
            let ring = group.ringDoubles(r)
            let odd = ring.withUnsafeBytes { ExactPolygonTest.ringParity(x: x, y: y, ring: $0.baseAddress!, count: ring.count / 2) }
            if odd { inside.toggle() }
        }
        return inside
    }

    /// True when the sea cell holding the position may lie within ``nearShoreKm`` of land.
    /// False only when land is certainly farther.
    func mayBeNearShore(longitude lonIn: Double, latitude: Double) -> Bool {
        let lon = lonIn >= 180 ? -180 : lonIn
        let col = min(max(Int(lon.rounded(.down)) + 180, 0), CountryIndexFormat.rootColumns - 1)
        let row = min(max(Int(latitude.rounded(.down)) + 90, 0), CountryIndexFormat.rootRows - 1)
        return CellSlot(root[row * CountryIndexFormat.rootColumns + col]).mayBeNearShore
    }
}

import Foundation
import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `land-index.bin`: OpenStreetMap's land polygons (`osm-land.wkb`, from the
/// roaring-landmask wheel) in `country-index.bin`'s layout, each piece of land named by the
/// country of the area index's region that holds it. The resolver measures the territorial sea,
/// the near-shore suggestion and `nearest` from this land, so an island that Natural Earth
/// leaves out still has its 12 miles.
///
/// A land cell that the area index names one country over is that country's. Elsewhere only
/// the coast's country matters (the nearest land to a position at sea lies on the coast, and on
/// land the region answers): each polygon part whose coast vertices all lie in one country's
/// regions is that country's (or, where no region names one, on the open ocean, Natural Earth's
/// country there); a cell with a part whose coast runs from one country into another is split,
/// and at the finest level (2^-10°, 110 m) such a part goes to the country at a point inside
/// it, as does a part with no coast in its cell.
///
/// The land is clipped to 10° tiles first, so that a continent's polygon is cut a few hundred
/// times rather than once per 1° cell; a polygon within one cell is not cut at all. Every cut
/// is checked by area (``Geometry/clipped(toTiling:)``), since GEOS's rectangle clipper can turn
/// a ring that runs along a cell's side inside out. Vertices are rounded to
/// 2^-``LandIndexFormat/snapBits`` degrees (1.7 m at the equator), which lets the committed pack
/// store them as small integers.
///
/// The build is deterministic: the same land, regions and options give the same bytes.
public struct LandIndexBuilder {
    /// Split a cell while its clipped polygons have more vertices than this: more than the
    /// country index's 24, since every cut adds vertices on the cell's sides and rings to close,
    /// and a lookup on land reads one leaf.
    public var leafVertexLimit = 64
    /// Stop splitting at cells of 2^-maxDepth degrees.
    public var maxDepth = CountryIndexFormat.finestDepth
    /// See ``LevelMerger``.
    public var mergeFill = 0.25
    /// Sea cells farther than this from any land are flagged so that near-shore checks skip them.
    public var nearShoreKm = 25.0
    /// The side of the tiles the land is clipped to first, in degrees.
    static let tileDegrees = 10

    public init() {}

    /// Statistics of one build, for the tool's report.
    public struct Report: Sendable {
        public var polygons = 0, sourceVertices = 0
        public var index = CountryIndexBuilder.Report()
        /// Cells split because a polygon part in them lies in more than one country's regions.
        public var splitForCountries = 0
        /// Polygon parts named by a point inside them: those with no coast in their cell, and
        /// those whose coast still runs through more than one country's regions at the finest
        /// level.
        public var partsByPoint = 0
        /// Of those, the parts no region names a country for, named by Natural Earth's land.
        public var partsByNaturalEarth = 0
    }

    /// - Parameters:
    ///   - land: little-endian WKB of one MultiPolygon.
    ///   - path: where `land` was read from, for errors.
    ///   - areas: the (country, zone) regions; a land cell's country is its region's.
    ///   - naturalEarth: Natural Earth's country index, for land in regions of no country.
    ///   - progress: called with the tiles done and their count.
    public func build(
        land: UnsafeRawBufferPointer, path: String, areas: AreaIndex, naturalEarth: CountryIndex, catalogueIDs: [String],
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> (bytes: [UInt8], report: Report) {
        precondition(maxDepth <= CountryIndexFormat.finestDepth)
        let polygons = try LandPolygons(wkb: land, path: path)
        var report = Report()
        report.polygons = polygons.ranges.count
        report.sourceVertices = polygons.vertexCount
        let ctx = GEOSContext()
        let t = Self.tileDegrees, tileColumns = 360 / t, tileRows = 180 / t
        var writer = CountryLeafWriter()
        writer.compact = true
        var tree = CellTree(leafVertexLimit: leafVertexLimit, maxDepth: maxDepth, emptySlot: CountryIndexFormat.coastalSea)
        // A compact leaf's offsets reach 2^15 units of 2^-16°: no leaf cell is a whole degree.
        tree.minimumLeafDepth = 1
        tree.checksTiling = true
        var root = [UInt32](repeating: 0, count: CountryIndexFormat.rootColumns * CountryIndexFormat.rootRows)

        // The country of a position: its region's, or -1 where no region names one.
        func country(_ x: Double, _ y: Double) -> Int {
            areas.region(at: Coordinate(latitude: y, longitude: x)).flatMap(areas.country(ofRegion:)) ?? -1
        }
        func attribute(_ parts: [Geometry], _ x0: Double, _ y0: Double, _ depth: Int, _ finest: Bool) throws -> [Piece]? {
            let lattice = Double(1 << CountryIndexFormat.finestDepth)
            let countries = areas.countries(inCellAt: Int((x0 + 180) * lattice), Int((y0 + 90) * lattice), depth: depth)
            // The open ocean's regions (-1) name no country: land that reaches into them from
            // a country's is that country's, and land wholly in them is named below.
            let named = countries.subtracting([-1])
            if named.count == 1, let only = named.first {
                return Piece(item: only, geometry: try ctx.collection(parts)).map { [$0] } ?? []
            }
            // Only the coast needs its country (the nearest land to a position at sea is a
            // point of the coast; on land the region answers): a polygon part whose coast
            // vertices (those inside the cell, not the clip's on its sides) lie in one country's
            // regions, and the open ocean's, is that country's. A part whose coast runs from one
            // country into another is cut smaller first; a part with no coast in the cell takes
            // the country at a point inside it.
            let x1 = x0 + 1 / Double(1 << depth), y1 = y0 + 1 / Double(1 << depth)
            var byPart: [(part: Geometry, country: Int)] = []
            for g in parts {
                for part in try Self.polygons(of: g) {
                    var seen = Set<Int>()
                    if !named.isEmpty {
                        part.forEachRing { _, _, xy in
                            var k = 0
                            while k < xy.count && seen.count < 2 {
                                let x = xy[k], y = xy[k + 1]
                                if x > x0 && x < x1 && y > y0 && y < y1 {
                                    let c = country(x, y)
                                    if c >= 0 { seen.insert(c) }
                                }
                                k += 2
                            }
                        }
                    }
                    if seen.count > 1 && !finest {
                        report.splitForCountries += 1
                        return nil
                    }
                    let c: Int
                    if seen.count == 1, let only = seen.first {
                        c = only
                    } else if seen.isEmpty && named.isEmpty {
                        c = -1
                    } else {
                        let p = try part.pointOnSurface()
                        report.partsByPoint += 1
                        c = country(p.x, p.y)
                    }
                    byPart.append((part, c))
                }
            }
            var byCountry: [Int: [Geometry]] = [:]
            for (part, c) in byPart {
                var item = c
                if item < 0 {
                    // The open ocean's zones hold Baker Island and Clipperton: Natural Earth's land
                    // names them.
                    let p = try part.pointOnSurface()
                    let at = Coordinate(latitude: p.y, longitude: p.x)
                    report.partsByNaturalEarth += 1
                    item = naturalEarth.countryIndex(at: at) ?? naturalEarth.nearestLand(to: at)?.countryIndex ?? 0
                }
                byCountry[item, default: []].append(part)
            }
            return try byCountry.keys.sorted().compactMap { c in Piece(item: c, geometry: try ctx.collection(byCountry[c]!)) }
        }

        typealias Box = (xmin: Double, ymin: Double, xmax: Double, ymax: Double)
        /// `g` shared among the unit cells (of side `side` degrees, from (`x0`, `y0`), `columns`
        /// × `rows`) its extent meets, clipped with the area check; one within a cell as it is.
        func share(
            _ g: Geometry, box e: Box, side: Double, x0: Double, y0: Double, columns: Int, rows: Int
        ) throws -> [(cell: Int, piece: Geometry)] {
            func index(_ v: Double, _ origin: Double, _ count: Int) -> Int {
                min(max(Int(((v - origin) / side).rounded(.down)), 0), count - 1)
            }
            let c0 = index(e.xmin, x0, columns), c1 = index(e.xmax, x0, columns)
            let r0 = index(e.ymin, y0, rows), r1 = index(e.ymax, y0, rows)
            let cells = (r0...r1).flatMap { r in (c0...c1).map { c in r * columns + c } }
            func rectangle(_ cell: Int) -> Box {
                let x = x0 + Double(cell % columns) * side, y = y0 + Double(cell / columns) * side
                return (x, y, x + side, y + side)
            }
            if cells.count == 1 {
                let r = rectangle(cells[0])
                if e.xmin >= r.xmin && e.xmax <= r.xmax && e.ymin >= r.ymin && e.ymax <= r.ymax { return [(cells[0], g)] }
            }
            return try zip(cells, g.clipped(toTiling: cells.map(rectangle))).compactMap { cell, piece in
                !piece.isEmpty && piece.area > 0 ? (cell, piece) : nil
            }
        }

        // The land by 10° tile, each polygon clipped once to the tiles its extent meets.
        var tilePieces = [[(geometry: Geometry, box: Box)]](repeating: [], count: tileColumns * tileRows)
        for i in polygons.ranges.indices {
            let g = try ctx.geometry(wkb: polygons.wkb(i))
            for (tile, piece) in try share(
                g, box: polygons.boxes[i], side: Double(t), x0: -180, y0: -90, columns: tileColumns, rows: tileRows)
            {
                tilePieces[tile].append((piece, piece.envelope))
            }
        }
        for tileRow in 0..<tileRows {
            for tileColumn in 0..<tileColumns {
                let tile = tileRow * tileColumns + tileColumn
                let tx0 = Double(tileColumn * t - 180), ty0 = Double(tileRow * t - 90)
                var cellParts = [[Geometry]](repeating: [], count: t * t)
                for piece in tilePieces[tile] {
                    for (cell, part) in try share(piece.geometry, box: piece.box, side: 1, x0: tx0, y0: ty0, columns: t, rows: t) {
                        cellParts[cell].append(part)
                    }
                }
                tilePieces[tile] = []
                for cell in 0..<(t * t) {
                    let x0 = tx0 + Double(cell % t), y0 = ty0 + Double(cell / t)
                    let row = Int(y0) + 90, col = Int(x0) + 180
                    root[row * CountryIndexFormat.rootColumns + col] = try tree.encode(
                        parts: cellParts[cell], x0: x0, y0: y0, size: 1, depth: 0, attribute: attribute, writer: &writer)
                }
                progress(tile + 1, tileRows * tileColumns)
            }
        }
        CountryIndexBuilder.flagSea(&root, nearShoreKm: nearShoreKm)
        writer.report.seaCells = root.filter { CellSlot($0).kind == .sea }.count
        writer.report.countryCells = root.filter { CellSlot($0).kind == .country }.count
        var merger = LevelMerger(quadtree: tree.quadtree, minimumFill: mergeFill)
        for i in root.indices { root[i] = merger.merge(root[i], depth: 0) }
        writer.report.nodes = merger.nodeCount
        writer.report.nodeSlots = merger.nodes.count
        report.index = writer.report
        var bytes = writer.serialise(
            root: root, nodes: merger.nodes, catalogueIDs: catalogueIDs, boundariesFingerprint: CountryIndexFormat.fnv1a(land),
            nearShoreMetres: UInt32(nearShoreKm * 1000))
        try Self.appendCoastMarks(to: &bytes, catalogueIDs: catalogueIDs)
        return (bytes, report)
    }

    /// Appends the coast grid's marks, read off the index's own tree, names their offset in the
    /// header and recomputes the checksum (see ``CountryIndexFormat``).
    static func appendCoastMarks(to bytes: inout [UInt8], catalogueIDs: [String]) throws {
        typealias F = CountryIndexFormat
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("land-index-\(getpid()).bin").path
        defer { unlink(path) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw DataError.unreadable(path: path, reason: "cannot write the index to read its marks")
        }
        let marks = CoastGrid.landMarks(of: try CountryIndex(path: path, catalogueIDs: catalogueIDs))
        precondition(bytes.count % 8 == 0 && (bytes.count - F.headerSize) % 32 == 0)
        let offset = UInt64(bytes.count)
        marks.withUnsafeBytes { bytes += $0 }
        while (bytes.count - F.headerSize) % 32 != 0 { bytes.append(0) }
        withUnsafeBytes(of: offset.littleEndian) { for (i, b) in $0.enumerated() { bytes[F.coastMarksOffset + i] = b } }
        let sum = bytes.withUnsafeBytes { F.checksum(UnsafeRawBufferPointer(rebasing: $0[F.headerSize...])) }
        withUnsafeBytes(of: sum.littleEndian) { for (i, b) in $0.enumerated() { bytes[32 + i] = b } }
    }

    /// The tile (of `count`) that holds an offset of `degrees` from the grid's origin.
    static func tile(_ degrees: Double, count: Int) -> Int {
        min(max(Int((degrees / Double(tileDegrees)).rounded(.down)), 0), count - 1)
    }

    /// The polygons of a clip's result, which may be one polygon or a collection of them.
    static func polygons(of g: Geometry) throws -> [Geometry] {
        var out: [Geometry] = []
        try g.forEachPolygon { p in if !p.isEmpty && p.area > 0 { out.append(p) } }
        return out
    }
}

/// The polygons of a little-endian WKB MultiPolygon, found by one walk over its bytes: each
/// polygon's own WKB (which GEOS reads alone) and its bounding box.
struct LandPolygons {
    var ranges: [Range<Int>] = []
    var boxes: [(xmin: Double, ymin: Double, xmax: Double, ymax: Double)] = []
    var vertexCount = 0
    let bytes: UnsafeRawBufferPointer

    init(wkb b: UnsafeRawBufferPointer, path: String) throws(DataError) {
        bytes = b
        var at = 0
        func u32() throws(DataError) -> Int {
            guard at + 4 <= b.count else { throw .corrupt(path: path, reason: "truncated at byte \(at)") }
            defer { at += 4 }
            return Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        }
        func header(_ type: Int, _ what: String) throws(DataError) {
            guard at < b.count, b[at] == 1 else { throw .corrupt(path: path, reason: "\(what) at byte \(at) is not little-endian WKB") }
            at += 1
            let found = try u32()
            guard found == type else { throw .corrupt(path: path, reason: "\(what) at byte \(at - 5) has WKB type \(found), not \(type)") }
        }
        try header(6, "the land")
        let count = try u32()
        ranges.reserveCapacity(count)
        boxes.reserveCapacity(count)
        for _ in 0..<count {
            let start = at
            try header(3, "a polygon")
            let rings = try u32()
            var box = (xmin: Double.infinity, ymin: Double.infinity, xmax: -Double.infinity, ymax: -Double.infinity)
            for _ in 0..<rings {
                let n = try u32()
                guard n <= (b.count - at) / 16 else { throw .corrupt(path: path, reason: "a ring at byte \(at) runs past the end") }
                for k in 0..<n {
                    let x = b.loadUnaligned(fromByteOffset: at + 16 * k, as: Double.self)
                    let y = b.loadUnaligned(fromByteOffset: at + 16 * k + 8, as: Double.self)
                    guard x.isFinite, y.isFinite, abs(x) <= 180, abs(y) <= 90 else {
                        throw .corrupt(path: path, reason: "a vertex at byte \(at + 16 * k) is outside the world")
                    }
                    box = (min(box.xmin, x), min(box.ymin, y), max(box.xmax, x), max(box.ymax, y))
                }
                at += 16 * n
                vertexCount += n
            }
            guard rings > 0, box.xmin <= box.xmax else { throw .corrupt(path: path, reason: "an empty polygon at byte \(start)") }
            ranges.append(start..<at)
            boxes.append(box)
        }
        guard at == b.count else { throw .corrupt(path: path, reason: "\(b.count - at) bytes follow the last polygon") }
    }

    func wkb(_ i: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[ranges[i]]) }
}

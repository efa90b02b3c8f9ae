import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `country-index.bin` from `boundaries.bin` with GEOS: it classifies each cell of the
/// world grid as sea, inside one country, or border, splits border cells into quadrants while
/// they hold many vertices, and stores each country's polygons clipped to every border leaf.
///
/// The build is deterministic: the same boundaries and options give the same bytes.
public struct CountryIndexBuilder {
    /// Split a border cell while its clipped polygons have more vertices than this.
    public var leafVertexLimit = 24
    /// Stop splitting at cells of 2^-maxDepth degrees (10 → about 110 m); at most
    /// `CountryIndexFormat.finestDepth`.
    public var maxDepth = CountryIndexFormat.finestDepth
    /// Merge a node with its next level of descendants while at least this share of them is
    /// split further (see ``LevelMerger``).
    public var mergeFill = 0.25
    /// Sea cells farther than this from any land are flagged so that near-shore checks skip them.
    public var nearShoreKm = 25.0

    public init() {}

    /// Statistics of one build, for the tool's report.
    public struct Report: Sendable {
        public var seaCells = 0, countryCells = 0, nodes = 0, nodeSlots = 0, leaves = 0, groups = 0, rings = 0, vertices = 0
    }

    public func build(boundaries: BoundaryFile, catalogueIDs: [String]) throws -> (bytes: [UInt8], report: Report) {
        precondition(maxDepth <= CountryIndexFormat.finestDepth)
        guard boundaries.count == catalogueIDs.count else {
            throw DataError.stale(
                path: boundaries.file.path, reason: "\(boundaries.count) boundaries for \(catalogueIDs.count) catalogue entries")
        }
        let ctx = GEOSContext()
        var geometries: [Geometry] = []
        var boxes: [(Double, Double, Double, Double)] = []
        for i in 0..<boundaries.count {
            let g = try ctx.geometry(wkb: try boundaries.wkb(i))
            geometries.append(g)
            let e = g.envelope
            boxes.append((e.xmin, e.ymin, e.xmax, e.ymax))
        }

        var state = CountryLeafWriter()
        var tree = CellTree(leafVertexLimit: leafVertexLimit, maxDepth: maxDepth, emptySlot: CountryIndexFormat.coastalSea)
        var root = [UInt32](repeating: 0, count: CountryIndexFormat.rootColumns * CountryIndexFormat.rootRows)
        for row in 0..<CountryIndexFormat.rootRows {
            let y0 = Double(row - 90)
            for col in 0..<CountryIndexFormat.rootColumns {
                let x0 = Double(col - 180)
                var pieces: [Piece] = []
                for (i, b) in boxes.enumerated() where b.0 <= x0 + 1 && b.2 >= x0 && b.1 <= y0 + 1 && b.3 >= y0 {
                    let clip = try geometries[i].clipped(xmin: x0, ymin: y0, xmax: x0 + 1, ymax: y0 + 1)
                    if let piece = Piece(item: i, geometry: clip) { pieces.append(piece) }
                }
                root[row * CountryIndexFormat.rootColumns + col] = try tree.encode(
                    pieces, x0: x0, y0: y0, size: 1, depth: 0, writer: &state)
            }
        }
        Self.flagSea(&root, nearShoreKm: nearShoreKm)
        state.report.seaCells = root.filter { CellSlot($0).kind == .sea }.count
        state.report.countryCells = root.filter { CellSlot($0).kind == .country }.count
        var merger = LevelMerger(quadtree: tree.quadtree, minimumFill: mergeFill)
        for i in root.indices { root[i] = merger.merge(root[i], depth: 0) }
        state.report.nodes = merger.nodeCount
        state.report.nodeSlots = merger.nodes.count
        let bytes = state.serialise(
            root: root, nodes: merger.nodes, catalogueIDs: catalogueIDs,
            boundariesFingerprint: boundaries.fingerprint,
            nearShoreMetres: UInt32(nearShoreKm * 1000))
        return (bytes, state.report)
    }

    /// Marks root sea cells whose neighbourhood within `nearShoreKm` holds no land as far
    /// sea (0); every other sea slot stays coastal (1).
    static func flagSea(_ root: inout [UInt32], nearShoreKm: Double) {
        let cols = CountryIndexFormat.rootColumns, rows = CountryIndexFormat.rootRows
        let original = root
        let kmPerDegree = GreatCircle.meanEarthRadiusKm * .pi / 180
        let rowSpan = Int((nearShoreKm / kmPerDegree).rounded(.up))
        for row in 0..<rows {
            let lo = max(0, row - rowSpan), hi = min(rows - 1, row + rowSpan)
            let poleward = max(abs(Double(lo - 90)), abs(Double(hi + 1 - 90)))
            let c = cos(min(90, poleward) * .pi / 180)
            let colSpan = c < 1e-9 ? cols : min(cols, Int((nearShoreKm / (kmPerDegree * c)).rounded(.up)))
            for col in 0..<cols where CellSlot(original[row * cols + col]).kind == .sea {
                var land = false
                search: for r in lo...hi {
                    for dc in -colSpan...colSpan {
                        let cc = ((col + dc) % cols + cols) % cols
                        if CellSlot(original[r * cols + cc]).kind != .sea { land = true; break search }
                    }
                }
                root[row * cols + col] = land ? CountryIndexFormat.coastalSea : 0
            }
        }
    }
}

/// Writes the leaves of `country-index.bin`'s layout (and of the land index, which shares it)
/// and serialises the file.
struct CountryLeafWriter: CellTreeLeafWriter {
    /// Version 2's leaves: `UInt64` words, `Double` vertices.
    var leaves: [UInt64] = []
    /// Version 3's (``compact``): `UInt32` words, vertices on the 2^-16° lattice.
    var compactLeaves: [UInt32] = []
    var report = CountryIndexBuilder.Report()
    /// True to write format version 3's compact leaves (the land index): every vertex rounded
    /// to the nearest multiple of 2^-16°, stored as its offset from the leaf cell's corner. The
    /// tree must give no leaf a cell wider than 1/2° (``CellTree/minimumLeafDepth`` 1).
    var compact = false

    mutating func addLeaf(_ pieces: [Piece], x0: Double, y0: Double, size: Double) -> UInt32 {
        if compact { return addCompactLeaf(pieces, x0: x0, y0: y0, size: size) }
        let offset = leaves.count
        leaves.append(UInt64(pieces.count))
        for p in pieces {
            var rings: [[Double]] = []
            p.geometry.forEachRing { _, _, xy in rings.append(Array(xy)) }
            LeafGroup.append(country: p.item, rings: rings, to: &leaves)
            count(rings)
        }
        report.leaves += 1
        precondition(offset <= CellSlot.payloadLimit)
        return CellSlot(.leaf, payload: UInt32(offset)).raw
    }

    private mutating func count(_ rings: [[Double]]) {
        report.groups += 1
        report.rings += rings.count
        report.vertices += rings.reduce(0) { $0 + $1.count / 2 }
    }

    private mutating func addCompactLeaf(_ pieces: [Piece], x0: Double, y0: Double, size: Double) -> UInt32 {
        let perDegree = Int64(1) << CountryIndexFormat.compactUnitBits
        let scale = Double(perDegree)
        // The corner is on the 2^-10° lattice and the cell at most 1/2° wide, so every offset
        // is an integer in 0...2^15.
        precondition(size <= 0.5, "a compact leaf's cell is at most 1/2° wide")
        let cx = Int64(((x0 + 180) * scale).rounded()), cy = Int64(((y0 + 90) * scale).rounded())
        let offset = compactLeaves.count
        compactLeaves += [UInt32(pieces.count), UInt32(cx), UInt32(cy)]
        for p in pieces {
            var rings: [[Int64]] = []
            var counted: [[Double]] = []
            p.geometry.forEachRing { _, _, xy in
                var ring: [Int64] = []
                ring.reserveCapacity(xy.count)
                for (i, v) in xy.enumerated() {
                    // Rounded as a version-2 land index rounded its doubles, then moved.
                    let q = Int64((v * scale).rounded()) + (i % 2 == 0 ? 180 * perDegree - cx : 90 * perDegree - cy)
                    precondition(q >= 0 && q <= 1 << 15, "a vertex lies outside its leaf's cell")
                    ring.append(q)
                }
                rings.append(ring)
                counted.append(Array(xy))
            }
            LeafGroup.appendCompact(country: p.item, rings: rings, to: &compactLeaves)
            count(counted)
        }
        report.leaves += 1
        precondition(offset <= CellSlot.payloadLimit)
        return CellSlot(.leaf, payload: UInt32(offset)).raw
    }

    func serialise(
        root: [UInt32], nodes: [UInt32], catalogueIDs: [String], boundariesFingerprint: UInt64,
        nearShoreMetres: UInt32
    ) -> [UInt8] {
        typealias F = CountryIndexFormat
        var out = [UInt8](repeating: 0, count: F.headerSize)
        var offsets: [UInt64] = []
        var counts: [UInt32] = []
        func append<T>(_ array: [T]) {
            while out.count % 8 != 0 { out.append(0) }
            offsets.append(UInt64(out.count))
            counts.append(UInt32(array.count))
            array.withUnsafeBytes { out.append(contentsOf: $0) }
        }
        append(root)
        append(nodes)
        if compact { append(compactLeaves) } else { append(leaves) }
        while (out.count - F.headerSize) % 32 != 0 { out.append(0) }
        func put<T: FixedWidthInteger>(_ v: T, at offset: Int) {
            withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { out[offset + i] = b } }
        }
        for (i, b) in F.magic.enumerated() { out[i] = b }
        put(compact ? F.compactVersion : F.version, at: 8)
        put(UInt32(catalogueIDs.count), at: 12)
        put(F.catalogueHash(catalogueIDs), at: 16)
        put(boundariesFingerprint, at: 24)
        put(nearShoreMetres, at: 40)
        put(UInt32(F.finestDepth), at: 44)
        for s in 0..<F.sectionCount {
            put(offsets[s], at: 48 + 8 * s)
            put(counts[s], at: 48 + 8 * F.sectionCount + 4 * s)
        }
        let sum = out.withUnsafeBytes { F.checksum(UnsafeRawBufferPointer(rebasing: $0[F.headerSize...])) }
        put(sum, at: 32)
        return out
    }
}

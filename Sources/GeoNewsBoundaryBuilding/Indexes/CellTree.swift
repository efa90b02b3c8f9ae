import GeoNewsBoundaries

/// The quadtree both indexes share: a cell is empty, wholly one item's (a country, a region),
/// split into quadrants while its clipped polygons hold many vertices, or a leaf whose layout is
/// the index's own (``CellTreeLeafWriter``). ``LevelMerger`` turns the tree into the node table.
struct CellTree {
    /// Split a cell while its clipped polygons have more vertices than this.
    let leafVertexLimit: Int
    /// Stop splitting at cells of 2^-maxDepth degrees.
    let maxDepth: Int
    /// The slot of a cell that no item touches.
    let emptySlot: UInt32
    /// True when the items tile the plane (the regions of the area index), so that the clipped
    /// pieces of a cell must fill it; see ``Piece/clip(_:xmin:ymin:xmax:ymax:tiles:)``.
    var tiles = false
    /// True to clip with the area check of ``Geometry/clipped(toTiling:)`` (the land index's
    /// builder: its land has rings along cells' sides that GEOS's clipper can turn inside out).
    var checksTiling = false
    /// Cells shallower than this are split even when their polygons have few vertices (the
    /// land index's compact leaves are at most 1/2° wide).
    var minimumLeafDepth = 0
    /// The tree as built, four child slots per node.
    private(set) var quadtree: [UInt32] = []

    init(leafVertexLimit: Int, maxDepth: Int, emptySlot: UInt32) {
        precondition(maxDepth <= CountryIndexFormat.finestDepth)
        self.leafVertexLimit = leafVertexLimit
        self.maxDepth = maxDepth
        self.emptySlot = emptySlot
    }

    /// The slot for the cell of side `size` degrees at (`x0`, `y0`) holding `pieces`, splitting
    /// it and writing leaves as needed; `depth` counts levels below the 1° grid.
    mutating func encode<W: CellTreeLeafWriter>(
        _ pieces: [Piece], x0: Double, y0: Double, size: Double, depth: Int,
        writer: inout W
    ) throws -> UInt32 {
        if pieces.isEmpty { return emptySlot }
        if pieces.count == 1, pieces[0].covers(x0: x0, y0: y0, size: size) {
            precondition(pieces[0].item <= CellSlot.payloadLimit)
            return CellSlot(.country, payload: UInt32(pieces[0].item)).raw
        }
        let vertexCount = pieces.reduce(0) { $0 + $1.vertexCount }
        if vertexCount <= leafVertexLimit && depth >= minimumLeafDepth || depth >= maxDepth {
            return writer.addLeaf(pieces, x0: x0, y0: y0, size: size)
        }
        let half = size / 2
        let node = appendNode()
        var quarters = [[Piece]](repeating: [], count: 4)
        if checksTiling {
            for p in pieces {
                for (k, parts) in try Self.quarter([p.geometry], x0: x0, y0: y0, half: half).enumerated() {
                    for g in parts { if let piece = Piece(item: p.item, geometry: g) { quarters[k].append(piece) } }
                }
            }
        }
        for k in 0..<4 {
            let cx = x0 + (k & 1 == 1 ? half : 0), cy = y0 + (k & 2 == 2 ? half : 0)
            let sub =
                checksTiling ? quarters[k] : try Piece.clip(pieces, xmin: cx, ymin: cy, xmax: cx + half, ymax: cy + half, tiles: tiles)
            let slot = try encode(sub, x0: cx, y0: cy, size: half, depth: depth + 1, writer: &writer)
            setChild(of: node, k, to: slot)
        }
        return CellSlot(.node, payload: UInt32(node)).raw
    }

    /// `geometries` shared among a cell's four quadrants (k & 1 east, k & 2 north), each clipped
    /// with the area check of ``Geometry/clipped(toTiling:)``; one that lies within a quadrant
    /// goes there as it is.
    static func quarter(_ geometries: [Geometry], x0: Double, y0: Double, half: Double) throws -> [[Geometry]] {
        let quadrants = (0..<4).map { k in
            let x = x0 + (k & 1 == 1 ? half : 0), y = y0 + (k & 2 == 2 ? half : 0)
            return (xmin: x, ymin: y, xmax: x + half, ymax: y + half)
        }
        var out = [[Geometry]](repeating: [], count: 4)
        for g in geometries {
            let e = g.envelope
            if let k = quadrants.firstIndex(where: { e.xmin >= $0.xmin && e.xmax <= $0.xmax && e.ymin >= $0.ymin && e.ymax <= $0.ymax }) {
                out[k].append(g)
                continue
            }
            for (k, piece) in try g.clipped(toTiling: quadrants).enumerated() where !piece.isEmpty && piece.area > 0 {
                out[k].append(piece)
            }
        }
        return out
    }

    /// A new node of four empty children; its index.
    private mutating func appendNode() -> Int {
        quadtree.append(contentsOf: [0, 0, 0, 0])
        let node = quadtree.count / 4 - 1
        precondition(node <= CellSlot.payloadLimit)
        return node
    }

    private mutating func setChild(of node: Int, _ k: Int, to slot: UInt32) { quadtree[node * 4 + k] = slot }
}

/// Writes a leaf of an index's own layout and returns its slot.
protocol CellTreeLeafWriter {
    mutating func addLeaf(_ pieces: [Piece], x0: Double, y0: Double, size: Double) -> UInt32
}

/// One item's polygons (a country's, a region's) clipped to a cell.
struct Piece {
    let item: Int
    let geometry: Geometry
    let vertexCount: Int

    init?(item: Int, geometry: Geometry) {
        guard !geometry.isEmpty, geometry.area > 0 else { return nil }
        var n = 0
        geometry.forEachRing { _, _, xy in n += xy.count / 2 }
        guard n > 0 else { return nil }
        self.item = item
        self.geometry = geometry
        vertexCount = n
    }

    /// `pieces` clipped to a rectangle by GEOS's fast rectangle clipper. With `tiles` (the
    /// pieces tile the plane), a clip whose areas do not add up to the rectangle's within 0.1 %
    /// is redone by GEOS's overlay intersection: the rectangle clipper returns the rest of the
    /// rectangle instead of the polygon for some rings that run along a cell's side.
    static func clip(_ pieces: [Piece], xmin: Double, ymin: Double, xmax: Double, ymax: Double, tiles: Bool) throws -> [Piece] {
        var out: [Piece] = []
        for p in pieces {
            let clip = try p.geometry.clippedRobustly(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
            if let piece = Piece(item: p.item, geometry: clip) { out.append(piece) }
        }
        let area = (xmax - xmin) * (ymax - ymin)
        guard tiles, let any = pieces.first, abs(out.reduce(0) { $0 + $1.geometry.area } - area) > 1e-3 * area else { return out }
        let rectangle = try any.geometry.context.rectangle(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
        out = []
        for p in pieces {
            // A piece the rectangle clipper cut earlier may be invalid (a ring touching itself on
            // a cell's side), which the overlay refuses.
            let valid = p.geometry.isValid ? p.geometry : try p.geometry.madeValid()
            if let piece = Piece(item: p.item, geometry: try valid.intersection(rectangle)) { out.append(piece) }
        }
        return out
    }

    /// True when the clipped polygons fill the cell: every vertex lies on the cell's edge and
    /// the area equals the cell's.
    func covers(x0: Double, y0: Double, size: Double) -> Bool {
        let x1 = x0 + size, y1 = y0 + size
        guard geometry.area >= size * size * (1 - 1e-12) else { return false }
        var onEdge = true
        geometry.forEachRing { _, _, xy in
            var k = 0
            while k < xy.count {
                let x = xy[k], y = xy[k + 1]
                if !(x == x0 || x == x1 || y == y0 || y == y1) { onEdge = false }
                k += 2
            }
        }
        return onEdge
    }
}

extension CellTree {
    /// The slot for a cell of polygons whose item is not known in advance (land, whose country
    /// is the region's it lies in): `attribute` gives the cell's pieces when it can name their
    /// items here, or `nil` when the cell must be split first (its answer is ignored at
    /// `maxDepth`, where it must name them). Named pieces are then encoded as any others.
    mutating func encode<W: CellTreeLeafWriter>(
        parts: [Geometry], x0: Double, y0: Double, size: Double, depth: Int,
        attribute: (_ parts: [Geometry], _ x0: Double, _ y0: Double, _ depth: Int, _ finest: Bool) throws -> [Piece]?,
        writer: inout W
    ) throws -> UInt32 {
        if parts.isEmpty { return emptySlot }
        if let pieces = try attribute(parts, x0, y0, depth, depth >= maxDepth) {
            return try encode(pieces, x0: x0, y0: y0, size: size, depth: depth, writer: &writer)
        }
        precondition(depth < maxDepth, "a cell at the finest depth must be attributed")
        let half = size / 2
        let node = appendNode()
        let quarters = try Self.quarter(parts, x0: x0, y0: y0, half: half)
        for k in 0..<4 {
            let cx = x0 + (k & 1 == 1 ? half : 0), cy = y0 + (k & 2 == 2 ? half : 0)
            let slot = try encode(
                parts: quarters[k], x0: cx, y0: cy, size: half, depth: depth + 1, attribute: attribute, writer: &writer)
            setChild(of: node, k, to: slot)
        }
        return CellSlot(.node, payload: UInt32(node)).raw
    }
}

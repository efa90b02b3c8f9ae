import GeoNewsBoundaries

/// Turns the built quadtree (four children per node) into the index's node table, where a node
/// may have 2^k × 2^k children (k = 1…4): the levels below a node are merged into it while
/// they are dense, so a lookup takes one step per merged group instead of one per level.
///
/// A child that is not split (sea, one country, or a leaf) and falls inside a merged group
/// is repeated in each of the finer cells it covers. That is exact because leaves hold their
/// vertices in absolute degrees and whole-cell answers hold for every part of the cell.
struct LevelMerger {
    let quadtree: [UInt32]
    /// Merge one more level while at least this share of its cells is split further.
    let minimumFill: Double
    private(set) var nodes: [UInt32] = []
    private(set) var nodeCount = 0

    init(quadtree: [UInt32], minimumFill: Double) {
        self.quadtree = quadtree
        self.minimumFill = minimumFill
    }

    /// The slot for `slot` (a quadtree slot at `depth` levels below the 1° grid), with its
    /// subtree merged into `nodes`.
    mutating func merge(_ slot: UInt32, depth: Int) -> UInt32 {
        typealias F = CountryIndexFormat
        guard CellSlot(slot).isNode else { return slot }
        var k = 1
        while k < F.maximumFanOutBits && depth + k < F.finestDepth {
            let level = descendants(of: slot, levels: k)
            let split = level.filter { CellSlot($0).isNode }.count
            guard Double(split) >= minimumFill * Double(level.count) else { break }
            k += 1
        }
        let children = descendants(of: slot, levels: k)
        let base = nodes.count
        precondition(base + children.count <= CellSlot.childBaseLimit)
        nodes.append(contentsOf: children)
        nodeCount += 1
        for (i, child) in children.enumerated() {
            let merged = merge(child, depth: depth + k)
            nodes[base + i] = merged
        }
        return CellSlot(nodeOf: k, childBase: base).raw
    }

    /// The 2^levels × 2^levels cells `levels` below a node, row-major from the south-west; an
    /// unsplit slot stands for all the cells it covers.
    private func descendants(of slot: UInt32, levels: Int) -> [UInt32] {
        let side = 1 << levels
        guard CellSlot(slot).isNode else {
            return [UInt32](repeating: slot, count: side * side)
        }
        if levels == 0 { return [slot] }
        var grid = [UInt32](repeating: 0, count: side * side)
        let half = side / 2
        let base = CellSlot(slot).payload * 4
        for quadrant in 0..<4 {
            let sub = descendants(of: quadtree[base + quadrant], levels: levels - 1)
            let x0 = (quadrant & 1) * half, y0 = (quadrant >> 1) * half
            for row in 0..<half {
                for col in 0..<half { grid[(y0 + row) * side + x0 + col] = sub[row * half + col] }
            }
        }
        return grid
    }
}

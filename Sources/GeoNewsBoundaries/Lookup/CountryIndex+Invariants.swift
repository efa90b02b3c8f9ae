/// The rules every leaf of a country-index-format file keeps (``CountryIndexFormat``), checked
/// by walking the tree from each root cell to every leaf it names: ``CellTreeWalk``'s layout
/// check vouches only that each slot points inside its section, and a lookup trusts the rest.
/// ``CountryIndex/verify()`` runs them after the checksum (`geonews-index --check` and the
/// build), and `CountryIndexInvariantTests` breaks each one on purpose. The area index's are in
/// `AreaIndex+Invariants.swift`.
/// A rule of the leaves of a cell-tree index (the country and land indexes', the area
/// index's).
package enum LeafRule: String, InvariantRule {
    package static let subject = ""
    /// The leaf's header, groups, vertex runs and ring tables lie inside the leaf section.
    case leafBounds = "leaf bounds"
    /// Every group names a country of the catalogue (a region of the area index).
    case groupOwner = "group owner"
    /// Each ring lies in its group's run, after the ring before, with at least two vertices.
    case ringTable = "ring table"
    /// Each ring ends on its first vertex.
    case closedRing = "closed ring"
    /// Every vertex of the run outside the rings is a return to its first vertex.
    case returns = "returns"
    /// The cell the leaf's vertices are measured from holds the cell of every slot that names
    /// it: a compact leaf's corner lies on the 2^-10° lattice with the slot's cell within 1/2°
    /// north and east of it; an area leaf's depth is at most the slot's.
    case leafCell = "leaf cell"
    /// Every vertex lies in the leaf's cell: a compact leaf's within 1/2° of its corner, an
    /// area leaf's within 2^14 units.
    case vertexInCell = "vertex in cell"
}

/// The first broken rule of a leaf, where, and how.
package typealias LeafProblem = InvariantProblem<LeafRule>

extension CountryIndex {
    /// The first rule a leaf breaks, or `nil`; each leaf is read once, however many slots
    /// name it.
    package func leafProblem() -> LeafProblem? {
        typealias F = CountryIndexFormat
        var checked = Set<Int>()
        var found: LeafProblem?
        /// Units of 2^-16° per 2^-10° lattice cell.
        let latticeUnits = 1 << (F.compactUnitBits - F.finestDepth)
        /// Visits the slot over the lattice square (`lx`, `ly`) of `size` lattice cells.
        func visit(_ slot: CellSlot, lx: Int, ly: Int, size: Int) {
            guard found == nil else { return }
            switch slot.kind {
            case .sea, .country:
                return
            case .node:
                let k = slot.fanOutBits, side = 1 << k, child = size >> k
                guard child > 0, slot.childBase + side * side <= nodes.count else { return }
                for cy in 0..<side {
                    for cx in 0..<side {
                        visit(CellSlot(nodes[slot.childBase + cy * side + cx]), lx: lx + cx * child, ly: ly + cy * child, size: child)
                    }
                }
            case .leaf:
                if compactLeaves {
                    found = cornerProblem(slot.payload, cell: (lx * latticeUnits, ly * latticeUnits, size * latticeUnits))
                }
                if found == nil, checked.insert(slot.payload).inserted { found = groupsProblem(slot.payload) }
            }
        }
        let size = 1 << F.finestDepth
        for row in 0..<F.rootRows {
            for column in 0..<F.rootColumns {
                visit(CellSlot(root[row * F.rootColumns + column]), lx: column * size, ly: row * size, size: size)
                if let found { return found }
            }
        }
        return nil
    }

    /// The corner rule for the leaf at `offset`, named by the slot over `cell` (its corner and
    /// side in 2^-16°).
    private func cornerProblem(_ offset: Int, cell: (x: Int, y: Int, side: Int)) -> LeafProblem? {
        guard offset + CountryIndexFormat.compactLeafHeaderWords <= leafWordCount else {
            return LeafProblem(rule: .leafBounds, detail: "the leaf at word \(offset) has no room for its header")
        }
        let x = Int(leaves.load(fromByteOffset: 4 * (offset + 1), as: UInt32.self))
        let y = Int(leaves.load(fromByteOffset: 4 * (offset + 2), as: UInt32.self))
        let lattice = 1 << (CountryIndexFormat.compactUnitBits - CountryIndexFormat.finestDepth)
        let reach = 1 << (CountryIndexFormat.compactUnitBits - 1)
        guard x % lattice == 0, y % lattice == 0, x <= cell.x, y <= cell.y, cell.x + cell.side <= x + reach,
            cell.y + cell.side <= y + reach
        else {
            return LeafProblem(
                rule: .leafCell,
                detail:
                    "the leaf at word \(offset) has its corner at (\(x), \(y)) for a cell at (\(cell.x), \(cell.y)) "
                    + "of side \(cell.side)")
        }
        return nil
    }

    /// Every rule but the corner's for the groups of the leaf at `offset`.
    private func groupsProblem(_ offset: Int) -> LeafProblem? {
        let wordSize = leafWordSize
        let headerWords = compactLeaves ? CountryIndexFormat.compactLeafHeaderWords : 1
        let groupHeaderWords = compactLeaves ? 2 : 1
        func bounds(_ what: String) -> LeafProblem {
            LeafProblem(rule: .leafBounds, detail: "the leaf at word \(offset): \(what) runs past the leaf section")
        }
        guard offset + headerWords <= leafWordCount else { return bounds("its header") }
        let leaf = Leaf(leaves, offset: offset, compact: compactLeaves)
        var at = offset + headerWords
        for g in 0..<leaf.groupCount {
            guard at + groupHeaderWords <= leafWordCount else { return bounds("group \(g)'s header") }
            let group = leaf.group(at: at * wordSize)
            let tableWords = group.ringCount
            let vertexWords = compactLeaves ? group.vertexCount : 2 * group.vertexCount
            guard group.vertexCount <= leafWordCount, vertexWords + tableWords <= leafWordCount - at - groupHeaderWords else {
                return bounds("group \(g)'s \(group.vertexCount) vertices and \(group.ringCount) rings")
            }
            let place = "group \(g) of the leaf at word \(offset)"
            guard group.country < countryCount else {
                return LeafProblem(rule: .groupOwner, detail: "\(place) names country \(group.country) of \(countryCount)")
            }
            var inRing = [Bool](repeating: false, count: group.vertexCount)
            var previousEnd = 0
            for r in 0..<group.ringCount {
                let (first, end) = group.ringBounds(r)
                guard first >= previousEnd, end >= first + 2, end <= group.vertexCount else {
                    return LeafProblem(
                        rule: .ringTable, detail: "\(place): ring \(r) spans \(first)..<\(end) of \(group.vertexCount) vertices")
                }
                guard group.vertex(first) == group.vertex(end - 1) else {
                    return LeafProblem(rule: .closedRing, detail: "\(place): ring \(r) does not end on its first vertex")
                }
                for k in first..<end { inRing[k] = true }
                previousEnd = end
            }
            for k in 0..<group.vertexCount where !inRing[k] && group.vertex(k) != group.vertex(0) {
                return LeafProblem(rule: .returns, detail: "\(place): vertex \(k) lies outside every ring and is not the first vertex")
            }
            if compactLeaves {
                let reach = Double(1 << (CountryIndexFormat.compactUnitBits - 1)) * LeafGroup.unit
                for k in 0..<group.vertexCount {
                    let v = group.vertex(k)
                    if v.x - leaf.x0 > reach || v.y - leaf.y0 > reach {
                        return LeafProblem(rule: .vertexInCell, detail: "\(place): vertex \(k) lies more than 1/2° from the corner")
                    }
                }
            }
            at = group.next / wordSize
        }
        return nil
    }
}

/// The rules every leaf of the area index keeps (``AreaIndexFormat``, ``LeafRule``), checked by
/// walking the tree from each root cell to every leaf it names. ``AreaIndex/verify()`` runs
/// them after the checksum and the layout (`geonews-index --check` and the build), and
/// `AreaIndexInvariantTests` breaks each one on purpose.
extension AreaIndex {
    /// The first rule a leaf breaks, or `nil`; each leaf's groups are read once, however many
    /// slots name it.
    package func leafProblem() -> LeafProblem? {
        typealias F = CountryIndexFormat
        var checked = Set<Int>()
        var found: LeafProblem?
        func visit(_ slot: CellSlot, depth: Int) {
            guard found == nil else { return }
            switch slot.kind {
            case .sea, .country:
                return
            case .node:
                let k = slot.fanOutBits, side = 1 << k
                guard depth + k <= F.finestDepth, slot.childBase + side * side <= nodes.count else { return }
                for child in 0..<(side * side) { visit(CellSlot(nodes[slot.childBase + child]), depth: depth + k) }
            case .leaf:
                guard slot.payload < leaves.count else {
                    found = LeafProblem(rule: .leafBounds, detail: "a leaf at word \(slot.payload) lies past the leaf section")
                    return
                }
                let leafDepth = Int(leaves[slot.payload] >> AreaIndexFormat.depthShift)
                guard leafDepth <= depth else {
                    found = LeafProblem(
                        rule: .leafCell,
                        detail: "the leaf at word \(slot.payload) is of depth \(leafDepth), named by a cell of depth \(depth)")
                    return
                }
                if checked.insert(slot.payload).inserted { found = groupsProblem(slot.payload) }
            }
        }
        for slot in root {
            visit(CellSlot(slot), depth: 0)
            if let found { return found }
        }
        return nil
    }

    /// Every rule but the cell's for the groups of the leaf at `offset`.
    private func groupsProblem(_ offset: Int) -> LeafProblem? {
        let words = leaves.count
        func bounds(_ what: String) -> LeafProblem {
            LeafProblem(rule: .leafBounds, detail: "the leaf at word \(offset): \(what) runs past the leaf section")
        }
        let mask = AreaIndexFormat.coordinateMask, side = UInt16(1 << AreaIndexFormat.unitBits)
        var at = offset + 1
        for g in 0..<Int(leaves[offset] & AreaIndexFormat.groupCountMask) {
            guard at + 3 <= words else { return bounds("group \(g)'s header") }
            let group = AreaLeafGroup(leaves, at: at)
            guard 2 * group.vertexCount + 2 * group.ringCount <= words - at - 3 else {
                return bounds("group \(g)'s \(group.vertexCount) vertices and \(group.ringCount) rings")
            }
            let place = "group \(g) of the leaf at word \(offset)"
            guard group.region < regionCount else {
                return LeafProblem(rule: .groupOwner, detail: "\(place) names region \(group.region) of \(regionCount)")
            }
            let v = group.vertices
            func point(_ k: Int) -> (UInt16, UInt16) { (v[2 * k] & mask, v[2 * k + 1]) }
            var inRing = [Bool](repeating: false, count: group.vertexCount)
            var previousEnd = 0
            for r in 0..<group.ringCount {
                let table = at + 3 + 2 * group.vertexCount + 2 * r
                let first = Int(leaves[table]), end = Int(leaves[table + 1])
                guard first >= previousEnd, end >= first + 2, end <= group.vertexCount else {
                    return LeafProblem(
                        rule: .ringTable, detail: "\(place): ring \(r) spans \(first)..<\(end) of \(group.vertexCount) vertices")
                }
                guard point(first) == point(end - 1) else {
                    return LeafProblem(rule: .closedRing, detail: "\(place): ring \(r) does not end on its first vertex")
                }
                for k in first..<end { inRing[k] = true }
                previousEnd = end
            }
            for k in 0..<group.vertexCount {
                if !inRing[k] && point(k) != point(0) {
                    return LeafProblem(rule: .returns, detail: "\(place): vertex \(k) lies outside every ring and is not the first vertex")
                }
                if point(k).0 > side || point(k).1 > side {
                    return LeafProblem(rule: .vertexInCell, detail: "\(place): vertex \(k) lies past its cell's \(side) units")
                }
            }
            at += 3 + 2 * group.vertexCount + 2 * group.ringCount
        }
        return nil
    }
}

extension AreaIndex {
    /// The countries whose regions may touch a cell of the lattice: the catalogue indexes of
    /// every region in the slots and leaves over the cell, with -1 for a region of the open
    /// ocean or a gap between zones. A leaf coarser than the cell counts all its regions, so
    /// the answer may name a country that only touches the leaf: a builder that splits a cell
    /// until one country is left stops no later for it.
    ///
    /// - Parameters:
    ///   - gx, gy: the cell's south-west corner in 2^-10° lattice units from 180° W, 90° S.
    ///   - depth: the cell's level below the 1° grid (its side is 2^-depth degrees), 0…10.
    package func countries(inCellAt gx: Int, _ gy: Int, depth: Int) -> Set<Int> {
        typealias F = CountryIndexFormat
        precondition((0...F.finestDepth).contains(depth))
        let span = 1 << (F.finestDepth - depth)
        var found = Set<Int>()
        func add(region r: Int) { found.insert(country(ofRegion: r) ?? -1) }
        func visit(_ slot: CellSlot, x0: Int, y0: Int, shift: Int) {
            switch slot.kind {
            case .sea:
                found.insert(-1)
            case .country:
                add(region: slot.payload)
            case .leaf:
                var p = slot.payload
                var groups = Int(leaves[p] & AreaIndexFormat.groupCountMask)
                p += 1
                while groups > 0 {
                    let group = AreaLeafGroup(leaves, at: p)
                    add(region: group.region)
                    p = group.next
                    groups -= 1
                }
            case .node:
                let k = slot.fanOutBits, childShift = shift - k, side = 1 << childShift
                for r in 0..<(1 << k) {
                    let cy = y0 + r * side
                    guard cy < gy + span, cy + side > gy else { continue }
                    for c in 0..<(1 << k) {
                        let cx = x0 + c * side
                        guard cx < gx + span, cx + side > gx else { continue }
                        visit(CellSlot(nodes[slot.childBase + (r << k) + c]), x0: cx, y0: cy, shift: childShift)
                    }
                }
            }
        }
        let rootSide = 1 << F.finestDepth
        let col = gx >> F.finestDepth, row = gy >> F.finestDepth
        visit(CellSlot(root[row * F.rootColumns + col]), x0: col * rootSide, y0: row * rootSide, shift: F.finestDepth)
        return found
    }
}

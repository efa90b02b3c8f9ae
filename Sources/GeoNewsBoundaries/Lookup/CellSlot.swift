/// One slot of the cell tree that ``CountryIndex`` and ``AreaIndex`` share: a `UInt32` whose
/// top two bits say what the cell is (see ``CountryIndexFormat``), read through names instead
/// of shifts and masks.
package struct CellSlot: Equatable, Sendable {
    typealias F = CountryIndexFormat

    /// The slot as the file stores it.
    package let raw: UInt32

    /// The largest payload a slot holds (its low 30 bits): the bound a writer checks a country,
    /// a region, a leaf's offset or an unmerged node's index against.
    package static let payloadLimit = Int(F.payloadMask)

    /// The largest first-child index a split node holds (its low 28 bits, below the fan-out).
    package static let childBaseLimit = Int(F.nodeIndexMask)

    @inline(__always)
    package init(_ raw: UInt32) { self.raw = raw }

    /// A slot of `kind` carrying `payload` in its low 30 bits.
    @inline(__always)
    package init(_ kind: CountryIndexFormat.Kind, payload: UInt32) { raw = kind.rawValue << F.kindShift | payload }

    /// A split node of 2^`fanOutBits` × 2^`fanOutBits` children, the first at `childBase` in
    /// the node section.
    @inline(__always)
    package init(nodeOf fanOutBits: Int, childBase: Int) {
        self.init(.node, payload: UInt32(fanOutBits - 1) << F.fanOutShift | UInt32(childBase))
    }

    @inline(__always)
    package var kind: CountryIndexFormat.Kind {
        switch raw &>> F.kindShift {
        case 0: .sea
        case 1: .country
        case 2: .node
        default: .leaf
        }
    }

    @inline(__always)
    package var isNode: Bool { raw &>> F.kindShift == F.Kind.node.rawValue }

    /// The low 30 bits: a whole cell's country (or region), a leaf's offset in words of the
    /// leaf section, a sea cell's near-shore flag.
    @inline(__always)
    package var payload: Int { Int(raw & F.payloadMask) }

    /// A node's k: it splits its cell into 2^k × 2^k children, k = 1…4.
    @inline(__always)
    package var fanOutBits: Int { Int(raw &>> F.fanOutShift & 3) &+ 1 }

    /// A node's first child slot in the node section.
    @inline(__always)
    package var childBase: Int { Int(raw & F.nodeIndexMask) }

    /// A sea cell that land may lie within the near-shore distance of.
    @inline(__always)
    package var mayBeNearShore: Bool { !(raw &>> F.kindShift == 0 && raw & F.coastalSea == 0) }
}

/// The cell tree's walks: the descent every lookup takes and the layout check of a file.
package enum CellTreeWalk {
    typealias F = CountryIndexFormat

    /// The slot of the finest cell the tree has over the lattice cell (`gx`, `gy`) (2^-10°
    /// units from 180° W, 90° S, inside the world): never a node. One step per merged group of
    /// levels, each an integer bit test on the lattice coordinates.
    @inline(__always)
    static func descend(root: UnsafeBufferPointer<UInt32>, nodes: UnsafeBufferPointer<UInt32>, gx: Int, gy: Int) -> CellSlot {
        var slot = CellSlot(root[rootIndex(gx: gx, gy: gy)])
        var shift = F.finestDepth
        while slot.isNode {
            let child = child(of: slot, below: &shift, gx: gx, gy: gy)
            slot = CellSlot(nodes[child])
        }
        return slot
    }

    /// The position in the root grid of the 1° cell over lattice cell (`gx`, `gy`).
    @inline(__always)
    static func rootIndex(gx: Int, gy: Int) -> Int {
        (gy &>> F.finestDepth) &* F.rootColumns &+ (gx &>> F.finestDepth)
    }

    /// The position in the node section of the child of `node` over lattice cell (`gx`,
    /// `gy`); `shift` is the lattice bits below `node`'s cell, and becomes the child's.
    @inline(__always)
    static func child(of node: CellSlot, below shift: inout Int, gx: Int, gy: Int) -> Int {
        let k = node.fanOutBits
        shift &-= k
        let mask = (1 &<< k) &- 1
        return node.childBase &+ ((gy &>> shift & mask) &<< k | (gx &>> shift & mask))
    }

    /// The first slot that points outside its section or names no `payloadName` below
    /// `payloadCount`, or `nil` when every step of a descent stays inside the file. (What
    /// lies inside a leaf is the format's own: ``CountryIndex/leafProblem()`` walks a country
    /// index's leaves for its `verify()`.)
    ///
    /// - Parameters:
    ///   - leafWords: the leaf section's length in its own words (a leaf slot's unit).
    ///   - payloadName: what a whole cell names ("country", "region"), for the reason.
    package static func layoutProblem(
        root: UnsafeBufferPointer<UInt32>, nodes: UnsafeBufferPointer<UInt32>, leafWords: Int, payloadCount: Int,
        payloadName: String
    ) -> String? {
        guard root.count == F.rootColumns * F.rootRows else { return "the root grid has \(root.count) cells" }
        func problem(_ slot: CellSlot) -> String? {
            switch slot.kind {
            case .sea:
                return nil
            case .country:
                return slot.payload < payloadCount ? nil : "a cell names \(payloadName) \(slot.payload)"
            case .node:
                return slot.childBase + (1 << (2 * slot.fanOutBits)) <= nodes.count ? nil : "a node lies outside the node section"
            case .leaf:
                return slot.payload < leafWords ? nil : "a leaf lies outside the leaf section"
            }
        }
        for slot in root { if let p = problem(CellSlot(slot)) { return p } }
        for slot in nodes { if let p = problem(CellSlot(slot)) { return p } }
        return nil
    }
}

import GeoNewsBoundaries

// The tree of an area-index pack, written at build time; ``PackTree`` (GeoNewsBoundaries)
// reads it back.
extension PackTree {
    /// The stream of `atlas.root` and `atlas.nodes`; places every leaf in `atlas`.
    static func encode(_ atlas: inout PackLeafAtlas) throws(AreaIndexPack.EncodeError) -> [UInt8] {
        var walk = Encoder(atlas: atlas)
        for (i, slot) in atlas.root.enumerated() {
            try walk.slot(slot, gx: (i % F.rootColumns) << F.finestDepth, gy: (i / F.rootColumns) << F.finestDepth, shift: F.finestDepth)
        }
        guard walk.nextBlock == atlas.nodes.count else {
            throw .init(description: "\(atlas.nodes.count - walk.nextBlock) node slots lie outside the tree walk")
        }
        atlas = walk.atlas
        return walk.out
    }

    private struct Encoder {
        var atlas: PackLeafAtlas
        var out: [UInt8] = []
        var nextBlock = 0
        var lastNew = -1, lastRank = -1
        var lastRegion: Int?
        var seen: [Bool]

        init(atlas: PackLeafAtlas) {
            self.atlas = atlas
            seen = Array(repeating: false, count: atlas.offsets.count)
        }

        mutating func slot(_ raw: UInt32, gx: Int, gy: Int, shift: Int) throws(AreaIndexPack.EncodeError) {
            let slot = CellSlot(raw)
            switch slot.kind {
            case .sea:
                out.append(PackTree.sea)
                putVarint(UInt32(slot.payload), &out)
            case .country:
                if slot.payload == lastRegion {
                    out.append(PackTree.sameRegion)
                } else {
                    out.append(PackTree.region)
                    putVarint(UInt32(slot.payload), &out)
                }
                lastRegion = slot.payload
            case .node:
                let k = slot.fanOutBits, size = 1 << (2 * k)
                guard slot.childBase == nextBlock, k <= shift, nextBlock + size <= atlas.nodes.count else {
                    throw .init(description: "the node blocks are not laid out in the order of the tree walk")
                }
                out.append(PackTree.node + UInt8(k - 1))
                nextBlock += size
                let s = shift - k, mask = (1 << k) - 1
                for c in 0..<size {
                    try self.slot(atlas.nodes[slot.childBase + c], gx: gx + (c & mask) << s, gy: gy + (c >> k) << s, shift: s)
                }
            case .leaf:
                guard let rank = atlas.rank(ofOffset: slot.payload) else {
                    throw .init(description: "a slot names no leaf's start (\(slot.payload))")
                }
                if rank == lastNew + 1 && !seen[rank] {
                    out.append(PackTree.nextLeaf)
                    lastNew = rank
                } else if seen[rank] {
                    out.append(PackTree.leafAgain)
                    putVarint(zigzag32(rank - lastRank), &out)
                } else {
                    out.append(PackTree.otherLeaf)
                    putVarint(zigzag32(rank - lastNew - 1), &out)
                    lastNew = rank
                }
                seen[rank] = true
                lastRank = rank
                atlas.place(rank, gx: gx, gy: gy)
            }
        }
    }
}

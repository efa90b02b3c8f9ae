import GeoNewsData

/// The `tree` stream of a pack: the root grid and the nodes of the cell tree, walked depth
/// first (root cells in file order, a node's children row by row), one code byte per slot.
///
/// The builder allocates node blocks in that same walk, so a node's child base is implied (the
/// next free block), and it writes leaves in nearly the order the walk first meets them, so a
/// leaf slot is mostly "the next leaf". As raw `UInt32`s the two sections took 3.2 MB of zlib.
///
/// Codes (then the varints named):
/// - 0 sea, then its payload;
/// - 1 a region, then its index; 2 the same region as the last region slot;
/// - 3…6 a node of fan-out bits 1…4;
/// - 7 the leaf after the last new one; 8 a leaf met before, then the zigzag difference of
///   its rank from the last leaf slot's; 9 any other leaf, then the zigzag difference of its
///   rank from the one after the last new one (it becomes the last new one).
package enum PackTree {
    package typealias F = CountryIndexFormat

    package static let sea: UInt8 = 0, region: UInt8 = 1, sameRegion: UInt8 = 2, node: UInt8 = 3
    package static let nextLeaf: UInt8 = 7, leafAgain: UInt8 = 8, otherLeaf: UInt8 = 9
    /// Node slots set aside before the walk (16 MB; today's index has 3.1 M): more grow as read.
    package static let reservedNodes = 1 << 22

    /// Rebuilds the root grid and the `nodeCount` node slots from `tree` into `atlas`, asking
    /// `leaves` for each leaf's offset. Every count is bounded: a node block must fit the node
    /// section, the walk must fill it exactly, a payload must fit its 30 bits.
    package static func decode(
        _ tree: PackStream, nodeCount: Int, leaves: PackLeafDirectory, into atlas: inout PackLeafAtlas, path: String
    ) throws(DataError) {
        var walk = Decoder(tree: tree, nodeCount: nodeCount, leaves: leaves, path: path)
        walk.atlas = atlas
        walk.atlas.root = Array(repeating: 0, count: F.rootColumns * F.rootRows)
        walk.atlas.nodes.reserveCapacity(min(nodeCount, reservedNodes))
        for i in 0..<(F.rootColumns * F.rootRows) {
            walk.atlas.root[i] = try walk.slot(
                gx: (i % F.rootColumns) << F.finestDepth, gy: (i / F.rootColumns) << F.finestDepth, shift: F.finestDepth)
        }
        guard walk.nextBlock == nodeCount else {
            throw .corrupt(path: path, reason: "pack tree: \(walk.nextBlock) node slots where the index has \(nodeCount)")
        }
        atlas = walk.atlas
    }

    private struct Decoder {
        package let tree: PackStream
        /// The node slots the index header names: the walk's blocks must fill them exactly.
        package let nodeCount: Int
        package let leaves: PackLeafDirectory
        package let path: String
        package var atlas = PackLeafAtlas()
        package var nextBlock: Int { atlas.nodes.count }
        package var lastNew = -1, lastRank = -1
        package var lastRegion: UInt32?

        package init(tree: PackStream, nodeCount: Int, leaves: PackLeafDirectory, path: String) {
            self.tree = tree
            self.nodeCount = nodeCount
            self.leaves = leaves
            self.path = path
        }

        package mutating func slot(gx: Int, gy: Int, shift: Int) throws(DataError) -> UInt32 {
            let code = try tree.byte()
            switch code {
            case PackTree.sea:
                return CellSlot(.sea, payload: try tree.varint(limit: F.payloadMask)).raw
            case PackTree.region:
                let region = try tree.varint(limit: F.payloadMask)
                lastRegion = region
                return CellSlot(.country, payload: region).raw
            case PackTree.sameRegion:
                guard let region = lastRegion else { throw corrupt("a repeated region before any region") }
                return CellSlot(.country, payload: region).raw
            case PackTree.node..<PackTree.nextLeaf:
                let k = Int(code - PackTree.node) + 1, size = 1 << (2 * k)
                guard k <= shift, size <= nodeCount - nextBlock else {
                    throw corrupt("a node of \(size) children past the index's \(nodeCount) node slots")
                }
                // The node section grows block by block as the walk reads it, so a header that
                // names more nodes than the stream holds allocates nothing for them.
                let base = nextBlock
                atlas.nodes += repeatElement(0, count: size)
                let s = shift - k, mask = (1 << k) - 1
                for c in 0..<size {
                    atlas.nodes[base + c] = try slot(gx: gx + (c & mask) << s, gy: gy + (c >> k) << s, shift: s)
                }
                return CellSlot(nodeOf: k, childBase: base).raw
            case PackTree.nextLeaf, PackTree.leafAgain, PackTree.otherLeaf:
                let rank: Int
                switch code {
                case PackTree.nextLeaf: rank = lastNew + 1
                case PackTree.leafAgain: rank = lastRank + unzigzag32(try tree.varint(limit: UInt32.max))
                default: rank = lastNew + 1 + unzigzag32(try tree.varint(limit: UInt32.max))
                }
                guard rank >= 0 else { throw corrupt("a leaf of rank \(rank)") }
                let offset = try leaves.offset(ofRank: rank, atlas: &atlas)
                if code != PackTree.leafAgain { lastNew = rank }
                lastRank = rank
                atlas.place(rank, gx: gx, gy: gy)
                return CellSlot(.leaf, payload: offset).raw
            default:
                throw corrupt("slot code \(code), not 0–9")
            }
        }

        private func corrupt(_ reason: String) -> DataError { .corrupt(path: path, reason: "pack tree: \(reason)") }
    }
}

/// The leaves' offsets and depths, read ahead from a second reader of the `heads` stream as
/// the tree walk names leaves (a leaf's size follows from its group, ring and vertex counts).
package final class PackLeafDirectory {
    private let heads: PackStream
    private let leafWords: UInt64
    private let path: String
    private var next: UInt64 = 0

    package init(heads: PackStream, leafWords: UInt64, path: String) {
        self.heads = heads
        self.leafWords = leafWords
        self.path = path
    }

    /// The word offset of leaf `rank`, reading heads ahead as far as it.
    package func offset(ofRank rank: Int, atlas: inout PackLeafAtlas) throws(DataError) -> UInt32 {
        while atlas.offsets.count <= rank {
            guard next < leafWords, next <= UInt64(CountryIndexFormat.payloadMask) else {
                throw .corrupt(path: path, reason: "pack tree: leaf \(rank) lies past the leaves section")
            }
            let head = try heads.varint()
            atlas.offsets.append(UInt32(next))
            atlas.depths.append(UInt8(head >> UInt32(AreaIndexFormat.depthShift)))
            var size: UInt64 = 1
            for _ in 0..<(head & UInt32(AreaIndexFormat.groupCountMask)) {
                _ = try heads.varint()
                let rings = UInt64(try heads.varint()), vertices = UInt64(try heads.varint())
                size += 3 + 2 * vertices + 2 * rings
            }
            next += size
        }
        return atlas.offsets[rank]
    }
}

/// A signed difference as an unsigned number, small for small magnitudes of either sign.
package func zigzag32(_ d: Int) -> UInt32 { UInt32(truncatingIfNeeded: d >= 0 ? 2 * d : -2 * d - 1) }

package func unzigzag32(_ z: UInt32) -> Int { z & 1 == 0 ? Int(z >> 1) : -Int(z >> 1) - 1 }

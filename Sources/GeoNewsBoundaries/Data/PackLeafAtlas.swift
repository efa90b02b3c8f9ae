/// What the encoder and the decoder of a pack both know of the leaves once the cell tree is
/// rebuilt: each leaf's place in the leaves section, its depth and its cell, so that a vertex on
/// a cell's side can be named among the points of the leaf across that side.
///
/// A leaf is named by its rank, its place among the leaves in file order.
package struct PackLeafAtlas {
    package typealias F = CountryIndexFormat

    /// The cell tree's root grid and nodes (``CountryIndexFormat``).
    package var root: [UInt32] = []
    package var nodes: [UInt32] = []
    /// Each leaf's offset in words of the leaves section, by rank (strictly increasing).
    package var offsets: [UInt32] = []
    /// Each leaf's depth below the 1° grid, by rank.
    package var depths: [UInt8] = []
    /// By rank, the lattice (2^-10°) cell of the first slot naming the leaf in the tree walk,
    /// x in the high half; `unplaced` for a leaf no slot names (it has no neighbours).
    package var cells: [UInt64] = []
    package static let unplaced = UInt64.max

    package init() {}

    /// The rank of the leaf at `offset` words, or nil when no leaf starts there.
    package func rank(ofOffset offset: Int) -> Int? {
        var low = 0, high = offsets.count
        while low < high {
            let mid = (low + high) / 2
            if Int(offsets[mid]) < offset { low = mid + 1 } else { high = mid }
        }
        return low < offsets.count && Int(offsets[low]) == offset ? low : nil
    }

    /// Notes that the tree walk met leaf `rank` in the lattice cell (`gx`, `gy`) (its first
    /// meeting counts).
    package mutating func place(_ rank: Int, gx: Int, gy: Int) {
        if cells.count <= rank { cells += repeatElement(Self.unplaced, count: rank + 1 - cells.count) }
        if cells[rank] == Self.unplaced { cells[rank] = UInt64(gx) << 32 | UInt64(gy) }
    }

    /// The leaf across `side` of leaf `rank` (of `depth`), when it is of the same depth and
    /// comes earlier in the file, so that the decoder has its points already.
    package func neighbour(of rank: Int, depth: Int, across side: PackSide) -> Int? {
        guard rank < cells.count, cells[rank] != Self.unplaced, depth <= F.finestDepth else { return nil }
        let size = 1 << (F.finestDepth - depth)
        let x0 = Int(cells[rank] >> 32) & ~(size - 1), y0 = Int(cells[rank] & 0xFFFF_FFFF) & ~(size - 1)
        let (nx, ny) =
            switch side {
            case .west: (x0 - 1, y0)
            case .east: (x0 + size, y0)
            case .south: (x0, y0 - 1)
            case .north: (x0, y0 + size)
            }
        guard nx >= 0, ny >= 0, nx < F.rootColumns << F.finestDepth, ny < F.rootRows << F.finestDepth else { return nil }
        let slot = root.withUnsafeBufferPointer { r in
            nodes.withUnsafeBufferPointer { n in CellTreeWalk.descend(root: r, nodes: n, gx: nx, gy: ny) }
        }
        guard slot.kind == .leaf, let other = self.rank(ofOffset: slot.payload), other < rank, Int(depths[other]) == depth else {
            return nil
        }
        return other
    }
}

/// A side of a leaf's cell, where one coordinate of a vertex is 0 or 2^14.
package enum PackSide: Int, CaseIterable {
    case west, east, south, north

    /// The side of the cell across this one: a leaf's east side is its eastern neighbour's west.
    package var facing: PackSide { PackSide(rawValue: rawValue ^ 1)! }

    /// The side a literal's sides code (3 × x's code + y's code) puts it on, when exactly one
    /// of its coordinates is on a side.
    package static func of(sidesCode code: UInt8) -> PackSide? {
        switch (code / 3, code % 3) {
        case (1, 0): .west
        case (2, 0): .east
        case (0, 1): .south
        case (0, 2): .north
        default: nil
        }
    }

    /// The side a vertex lies on and its coordinate along it, when exactly one of its
    /// coordinates is on a side (a corner lies on two and is left to the sides code alone).
    package static func of(x: UInt16, y: UInt16) -> (side: PackSide, along: UInt16)? {
        let full: UInt16 = 1 << 14
        let onX = x == 0 || x == full, onY = y == 0 || y == full
        guard onX != onY else { return nil }
        return onX ? (x == 0 ? .west : .east, y) : (y == 0 ? .south : .north, x)
    }
}

/// The points on each side of every leaf given so far, so that a literal vertex on a side can be
/// named among them: a boundary crossing a cell's side crosses the facing side of its neighbour
/// at the same point, and a leaf repeats its own side points in each region that meets there.
package struct PackSidePoints {
    /// Per finished leaf, its side points as side << 16 | coordinate, sorted.
    private var pool: [UInt32] = []
    /// Per finished leaf (by rank), where its points start in `pool`; one more at the end.
    private var starts: [Int] = [0]
    /// The current leaf's points so far, per side, sorted and distinct.
    private var own: [[UInt16]] = Array(repeating: [], count: 4)
    /// The current leaf's neighbour per side, once asked (-2: not yet asked).
    private var across = [Int](repeating: -2, count: 4)
    private var depth = 0

    package init() {}

    /// The rank of the leaf being given.
    package var rank: Int { starts.count - 1 }

    package mutating func begin(depth: Int) {
        self.depth = depth
        for s in 0..<4 { own[s].removeAll(keepingCapacity: true) }
        across = [-2, -2, -2, -2]
    }

    /// Notes a vertex of the current leaf (every vertex given, literal or copied).
    package mutating func record(x: UInt16, y: UInt16) {
        guard let (side, along) = PackSide.of(x: x, y: y) else { return }
        Self.insert(along, into: &own[side.rawValue])
    }

    /// Files the current leaf's points under its rank.
    package mutating func end() {
        for side in PackSide.allCases {
            for point in own[side.rawValue] { pool.append(UInt32(side.rawValue) << 16 | UInt32(point)) }
        }
        starts.append(pool.count)
    }

    /// The points a literal on `side` may be named among: the current leaf's own points on that
    /// side and its earlier neighbour's points on the facing side, sorted and distinct.
    package mutating func candidates(on side: PackSide, atlas: PackLeafAtlas) -> [UInt16] {
        if across[side.rawValue] == -2 {
            across[side.rawValue] = atlas.neighbour(of: rank, depth: depth, across: side) ?? -1
        }
        var list = own[side.rawValue]
        let other = across[side.rawValue]
        guard other >= 0 else { return list }
        let key = UInt32(side.facing.rawValue)
        for p in pool[starts[other]..<starts[other + 1]] where p >> 16 == key { Self.insert(UInt16(p & 0xFFFF), into: &list) }
        return list
    }

    /// Static, so that inserting into `own` is not a call on a copy of `self` that leaves the
    /// list shared (and copied on every insert).
    private static func insert(_ value: UInt16, into list: inout [UInt16]) {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid] < value { low = mid + 1 } else { high = mid }
        }
        if low == list.count || list[low] != value { list.insert(value, at: low) }
    }
}

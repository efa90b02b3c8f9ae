/// For every cell of an ``AreaIndex`` tree, the country that holds the whole cell (its land and
/// territorial sea, with no edge of that country inside it), or none: a cell that is mixed,
/// at sea, or crossed by a country's edge. The border-distance search skips a cell its
/// country wholly holds without measuring it, however many time-zone lines or region
/// boundaries cross it (they cross Russia, the United States, Brazil and Antarctica many
/// times), which is most of the search's work in a large country.
///
/// Built from the index in one pass over its nodes and leaves (80 ms, 6 MB; see
/// `geonews-bench resolve`), for a process that measures many border distances: the
/// server and a batch. A single lookup measures without it.
public final class AreaBorderTable: @unchecked Sendable {
    // Sendable: both buffers are written in init and only read afterwards.
    /// One entry for each root cell, and one for each slot of the index's `nodes`: a
    /// country's catalogue index, or -1. Plain buffers, so that a lookup costs no reference
    /// counting.
    let root: UnsafeBufferPointer<Int16>
    let nodes: UnsafeBufferPointer<Int16>

    public init(_ index: AreaIndex) {
        // Filled in place: no temporary arrays of this size are freed at start, which would
        // raise glibc's mmap threshold and leave later large buffers (a batch's chunks) in
        // the heap for good.
        let nodes = UnsafeMutableBufferPointer<Int16>.allocate(capacity: index.nodes.count)
        nodes.initialize(repeating: -1)
        let root = UnsafeMutableBufferPointer<Int16>.allocate(capacity: index.root.count)
        // The scan reads every leaf (79 MB): the pages go back every 30 rows of root cells, so
        // that the resident set never holds the whole file, and leave the page cache after.
        index.scanningWhole {
            for i in 0..<index.root.count {
                root[i] = Self.wholeCountry(index.root[i], index, nodes)
                if (i + 1) % (30 * CountryIndexFormat.rootColumns) == 0 { index.releaseResidentPages() }
            }
            index.releaseResidentPages()
        }
        self.root = UnsafeBufferPointer(root)
        self.nodes = UnsafeBufferPointer(nodes)
    }

    /// Where the table keeps its entries (for ``TableBuild``).
    var storage: UnsafeRawBufferPointer { UnsafeRawBufferPointer(root) }

    deinit {
        root.deallocate()
        nodes.deallocate()
    }

    /// The country that wholly holds the cell of `slot`, or -1; fills `nodes` below it.
    private static func wholeCountry(_ slot: UInt32, _ index: AreaIndex, _ nodes: UnsafeMutableBufferPointer<Int16>) -> Int16 {
        let cell = CellSlot(slot)
        switch cell.kind {
        case .sea:
            return -1
        case .country:
            return index.country(ofRegion: cell.payload).map(Int16.init) ?? -1
        case .node:
            let side = 1 << cell.fanOutBits, base = cell.childBase
            var common: Int16? = nil, mixed = false
            for i in 0..<(side * side) {
                let c = wholeCountry(index.nodes[base + i], index, nodes)
                nodes[base + i] = c
                if c < 0 || (common != nil && common != c) { mixed = true } else { common = c }
            }
            return mixed ? -1 : common ?? -1
        case .leaf:
            var g = cell.payload
            let groups = Int(index.leaves[g] & AreaIndexFormat.groupCountMask)
            g += 1
            var common: Int? = nil
            for _ in 0..<groups {
                let group = AreaLeafGroup(index.leaves, at: g)
                g = group.next
                guard let c = index.country(ofRegion: group.region), common == nil || common == c else { return -1 }
                common = c
                // The edges the border search measures: any of them makes the cell a border cell.
                let v = group.vertices
                for k in 0..<max(0, group.vertexCount - 1) where v[2 * k] & AreaIndexFormat.countryEdgeBit != 0 {
                    return -1
                }
            }
            return common.map(Int16.init) ?? -1
        }
    }
}

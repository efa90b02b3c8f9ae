/// A border leaf of a country-index-format file, read in place (layout in
/// ``CountryIndexFormat``): its group count, where its first group starts, and, for a compact
/// leaf, the corner its vertices are measured from.
///
/// A leaf and its groups read the index's leaf section through its buffer, by byte offsets:
/// a read outside the section traps in a debug build (the buffer's own check), and costs no
/// more than a pointer's in a release build. The file's layout checks
/// (``CountryIndex/leafProblem()``) are what keep a release build's reads inside.
package struct Leaf {
    let section: UnsafeRawBufferPointer
    let groupCount: Int
    /// Where the first group starts: a byte offset into `section`.
    let first: Int
    let compact: Bool
    /// The leaf cell's south-west corner in degrees (compact leaves only).
    let x0: Double, y0: Double

    /// The leaf at `offset` words into the leaf section, whose words are 4 bytes when
    /// `compact`, else 8.
    @inline(__always)
    init(_ section: UnsafeRawBufferPointer, offset: Int, compact: Bool) {
        self.section = section
        self.compact = compact
        if compact {
            let at = 4 &* offset
            groupCount = Int(section.load(fromByteOffset: at, as: UInt32.self))
            let unit = LeafGroup.unit
            x0 = Double(section.load(fromByteOffset: at &+ 4, as: UInt32.self)) * unit - 180
            y0 = Double(section.load(fromByteOffset: at &+ 8, as: UInt32.self)) * unit - 90
            first = at &+ 4 &* CountryIndexFormat.compactLeafHeaderWords
        } else {
            let at = 8 &* offset
            groupCount = Int(section.load(fromByteOffset: at, as: UInt64.self))
            x0 = 0
            y0 = 0
            first = at &+ 8
        }
    }

    /// The group that starts at byte `start` of the section (``first``, or a group's
    /// ``LeafGroup/next``).
    @inline(__always)
    func group(at start: Int) -> LeafGroup { LeafGroup(section, at: start, compact: compact, x0: x0, y0: y0) }
}

/// One country's part of a border leaf, read in place: a header, the vertex run, the ring
/// table. Version 2's vertices are `Double` pairs; a compact leaf's are 16-bit offsets from its
/// corner, given back here as the same doubles (see ``CountryIndexFormat``).
package struct LeafGroup {
    let section: UnsafeRawBufferPointer
    /// Catalogue index of the country.
    let country: Int
    let ringCount: Int
    /// Vertices in the run, counting the closing ones and the returns between rings.
    let vertexCount: Int
    let compact: Bool
    let x0: Double, y0: Double
    /// Where the first vertex starts: a byte offset into `section`.
    let vertices: Int

    /// Degrees per unit of a compact vertex's offset.
    static let unit = 1 / Double(1 << CountryIndexFormat.compactUnitBits)

    @inline(__always)
    init(_ section: UnsafeRawBufferPointer, at start: Int, compact: Bool, x0: Double, y0: Double) {
        self.section = section
        self.compact = compact
        self.x0 = x0
        self.y0 = y0
        if compact {
            let head = section.load(fromByteOffset: start, as: UInt32.self)
            country = Int(head & 0xFFFF)
            ringCount = Int(head >> 16)
            vertexCount = Int(section.load(fromByteOffset: start &+ 4, as: UInt32.self))
        } else {
            let header = section.load(fromByteOffset: start, as: UInt64.self)
            country = Int(header & 0xFFFF)
            ringCount = Int(header >> 16 & 0xFFFF)
            vertexCount = Int(header >> 32)
        }
        vertices = start &+ 8
    }

    /// Vertex `k` of the run: x (longitude), y (latitude) in degrees.
    @inline(__always)
    func vertex(_ k: Int) -> (x: Double, y: Double) {
        if compact {
            let w = section.load(fromByteOffset: vertices &+ 4 &* k, as: UInt32.self)
            return (x0 + Double(w & 0xFFFF) * Self.unit, y0 + Double(w >> 16) * Self.unit)
        }
        let at = vertices &+ 16 &* k
        return (section.load(fromByteOffset: at, as: Double.self), section.load(fromByteOffset: at &+ 8, as: Double.self))
    }

    /// The ring table, after the vertices: a byte offset into `section`.
    @inline(__always)
    private var table: Int { vertices &+ (compact ? 4 : 16) &* vertexCount }

    /// The next group of the leaf (or whatever follows the leaf's last group): a byte offset.
    @inline(__always)
    var next: Int { table &+ (compact ? 4 : 8) &* ringCount }

    /// Ring `r` as a range of vertex positions in the run: closed, first vertex repeated last.
    /// (A reversed pair from a damaged file gives an empty range, not a trap.)
    @inline(__always)
    func ring(_ r: Int) -> Range<Int> {
        let (first, end) = ringBounds(r)
        return first..<max(first, end)
    }

    /// Ring `r`'s first vertex and one past its last, as the table stores them.
    @inline(__always)
    func ringBounds(_ r: Int) -> (first: Int, end: Int) {
        if compact {
            let word = section.load(fromByteOffset: table &+ 4 &* r, as: UInt32.self)
            return (Int(word & 0xFFFF), Int(word >> 16))
        }
        let word = section.load(fromByteOffset: table &+ 8 &* r, as: UInt64.self)
        return (Int(word & 0xFFFF_FFFF), Int(word >> 32))
    }

    /// The ring's vertices as x, y pairs of doubles, for the exact test, which reads them in place.
    func ringDoubles(_ r: Int) -> [Double] {
        var out: [Double] = []
        let ring = ring(r)
        out.reserveCapacity(2 * ring.count)
        for k in ring {
            let v = vertex(k)
            out.append(v.x)
            out.append(v.y)
        }
        return out
    }
}

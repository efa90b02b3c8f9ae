/// One country's part of a border leaf, read in place from the index's `leaves` section
/// (layout in ``CountryIndexFormat``): a header word, the vertex run, the ring table.
package struct LeafGroup {
    /// The header word; the vertices follow it.
    let start: UnsafePointer<UInt64>
    let header: UInt64

    @inline(__always)
    init(_ start: UnsafePointer<UInt64>) {
        self.start = start
        header = start.pointee
    }

    /// Catalogue index of the country.
    @inline(__always) var country: Int { Int(header & 0xFFFF) }
    @inline(__always) var ringCount: Int { Int(header >> 16 & 0xFFFF) }
    /// Vertices in the run, counting the closing ones and the returns between rings.
    @inline(__always) var vertexCount: Int { Int(header >> 32) }

    /// x, y pairs of Double degrees.
    @inline(__always)
    var vertices: UnsafePointer<Double> { UnsafeRawPointer(start + 1).assumingMemoryBound(to: Double.self) }

    /// The next group of the leaf (or whatever follows the leaf's last group).
    @inline(__always)
    var next: UnsafePointer<UInt64> { start + 1 + 2 * vertexCount + ringCount }

    /// Ring `r` as a range of vertex positions in the run: closed, first vertex repeated last.
    @inline(__always)
    func ring(_ r: Int) -> Range<Int> {
        let word = (start + 1 + 2 * vertexCount + r).pointee
        return Int(word & 0xFFFF_FFFF)..<Int(word >> 32)
    }
}

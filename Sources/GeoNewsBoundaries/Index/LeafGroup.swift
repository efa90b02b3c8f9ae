/// One country's part of a border leaf, read in place from the index's `leaves` section
/// (layout in ``CountryIndexFormat``): a header word, the vertex run, the ring table.
struct LeafGroup {
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

    /// Appends a group to `words`: the vertex run with returns to the first vertex between
    /// rings, then the ring table. `rings` are closed rings of flat x, y pairs.
    static func append(country: Int, rings: [[Double]], to words: inout [UInt64]) {
        precondition(country <= 0xFFFF && rings.count <= 0xFFFF && !rings.isEmpty)
        var run: [Double] = []
        var table: [UInt64] = []
        for (r, ring) in rings.enumerated() {
            if r > 1 { run.append(contentsOf: rings[0][0...1]) }
            let first = run.count / 2
            run.append(contentsOf: ring)
            table.append(UInt64(first) | UInt64(run.count / 2) << 32)
        }
        // The run ends where the last ring closes; for several rings the walk must come back
        // to the first ring's first vertex so the connecting edges pair up.
        if rings.count > 1 { run.append(contentsOf: rings[0][0...1]) }
        words.append(UInt64(country) | UInt64(rings.count) << 16 | UInt64(run.count / 2) << 32)
        words.append(contentsOf: run.map(\.bitPattern))
        words.append(contentsOf: table)
    }
}

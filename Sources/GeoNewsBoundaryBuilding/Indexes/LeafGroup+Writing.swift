import GeoNewsBoundaries

/// Writing a country's group into a border leaf of the country index (layout in
/// ``CountryIndexFormat``); ``LeafGroup`` reads it back in place.
extension LeafGroup {
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

    /// Appends a group to a compact leaf's words (format version 3): `rings` are closed rings
    /// of flat x, y offsets from the leaf's corner in 2^-16°, each in 0...2^15. The run holds at
    /// most 65,535 vertices, so that a ring table word holds a ring's first and end.
    static func appendCompact(country: Int, rings: [[Int64]], to words: inout [UInt32]) {
        precondition(country <= 0xFFFF && rings.count <= 0xFFFF && !rings.isEmpty)
        var run: [UInt32] = []
        var table: [UInt32] = []
        func vertex(_ xy: [Int64], _ i: Int) -> UInt32 { UInt32(xy[i]) | UInt32(xy[i + 1]) << 16 }
        for (r, ring) in rings.enumerated() {
            if r > 1 { run.append(vertex(rings[0], 0)) }
            let first = UInt32(run.count)
            for i in stride(from: 0, to: ring.count, by: 2) { run.append(vertex(ring, i)) }
            table.append(first | UInt32(run.count) << 16)
        }
        if rings.count > 1 { run.append(vertex(rings[0], 0)) }
        precondition(run.count <= 0xFFFF, "a compact group's run of \(run.count) vertices does not fit its 16-bit ring table")
        words.append(UInt32(country) | UInt32(rings.count) << 16)
        words.append(UInt32(run.count))
        words += run
        words += table
    }
}

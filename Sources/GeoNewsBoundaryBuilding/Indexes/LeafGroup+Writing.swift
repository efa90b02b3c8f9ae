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
}

import GeoNewsBoundaries

/// Writing a region's group into a leaf of the area index (layout in ``AreaIndexFormat``);
/// ``AreaLeafGroup`` reads it back in place.
extension AreaLeafGroup {
    /// Appends a group: the vertex run (units of the cell of side `size` at (`x0`, `y0`)) with
    /// returns to the first vertex between rings, then the ring table. `rings` are closed rings
    /// of flat x, y degree pairs.
    static func append(region: Int, rings: [[Double]], x0: Double, y0: Double, size: Double, to words: inout [UInt16]) {
        let scale = Double(1 << AreaIndexFormat.unitBits) / size
        func units(_ v: Double, _ origin: Double) -> UInt16 {
            let u = ((v - origin) * scale).rounded()
            precondition(u >= 0 && u <= Double(1 << AreaIndexFormat.unitBits), "a vertex lies outside its cell")
            return UInt16(u)
        }
        var run: [UInt16] = []
        var table: [UInt16] = []
        func add(_ ring: [Double], _ i: Int) { run += [units(ring[i], x0), units(ring[i + 1], y0)] }
        for (r, ring) in rings.enumerated() {
            if r > 1 { add(rings[0], 0) }
            let first = run.count / 2
            for i in stride(from: 0, to: ring.count, by: 2) { add(ring, i) }
            table += [UInt16(first), UInt16(run.count / 2)]
        }
        if rings.count > 1 { add(rings[0], 0) }
        precondition(region <= 0xFFFF && rings.count <= 0xFFFF && run.count / 2 <= 0xFFFF && !rings.isEmpty)
        words += [UInt16(region), UInt16(rings.count), UInt16(run.count / 2)]
        words += run
        words += table
    }
}

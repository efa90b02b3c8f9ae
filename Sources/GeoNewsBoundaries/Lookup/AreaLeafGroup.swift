/// One region's part of an area leaf, read in place (layout in ``AreaIndexFormat``).
package struct AreaLeafGroup {
    package let start: UnsafePointer<UInt16>

    @inline(__always) package init(_ start: UnsafePointer<UInt16>) { self.start = start }

    @inline(__always) package var region: Int { Int(start[0]) }
    @inline(__always) package var ringCount: Int { Int(start[1]) }
    /// Vertices in the run, counting the closing ones and the returns between rings.
    @inline(__always) package var vertexCount: Int { Int(start[2]) }
    /// x, y unit pairs; bit 15 of x is the country-edge flag of the edge that starts there.
    @inline(__always) package var vertices: UnsafePointer<UInt16> { start + 3 }
    @inline(__always) package var next: UnsafePointer<UInt16> { start + 3 + 2 * vertexCount + 2 * ringCount }

    /// Ring `r` as a range of vertex positions in the run: closed, first vertex repeated last.
    @inline(__always)
    package func ring(_ r: Int) -> Range<Int> {
        let t = start + 3 + 2 * vertexCount + 2 * r
        return Int(t[0])..<Int(t[1])
    }
}

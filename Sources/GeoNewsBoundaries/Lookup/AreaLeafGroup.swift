/// One region's part of an area leaf, read in place (layout in ``AreaIndexFormat``) through the
/// leaf section's buffer, by word positions: a read outside the section traps in a debug build
/// and costs no more than a pointer's in a release build (the layout checks keep it inside).
package struct AreaLeafGroup {
    package let section: UnsafeBufferPointer<UInt16>
    /// Where the group starts: a word position in `section`.
    package let start: Int

    @inline(__always) package init(_ section: UnsafeBufferPointer<UInt16>, at start: Int) {
        self.section = section
        self.start = start
    }

    @inline(__always) package var region: Int { Int(section[start]) }
    @inline(__always) package var ringCount: Int { Int(section[start &+ 1]) }
    /// Vertices in the run, counting the closing ones and the returns between rings.
    @inline(__always) package var vertexCount: Int { Int(section[start &+ 2]) }
    /// x, y unit pairs; bit 15 of x is the country-edge flag of the edge that starts there.
    @inline(__always) package var vertices: UnsafeBufferPointer<UInt16> {
        UnsafeBufferPointer(rebasing: section[(start &+ 3)..<(start &+ 3 &+ 2 &* vertexCount)])
    }
    /// Where the next group of the leaf starts (or whatever follows its last group).
    @inline(__always) package var next: Int { start &+ 3 &+ 2 &* vertexCount &+ 2 &* ringCount }

    /// Ring `r` as a range of vertex positions in the run: closed, first vertex repeated last.
    @inline(__always)
    package func ring(_ r: Int) -> Range<Int> {
        let t = start &+ 3 &+ 2 &* vertexCount &+ 2 &* r
        return Int(section[t])..<Int(section[t &+ 1])
    }
}

/// Point-in-polygon with exact arithmetic, for the few points that lie within rounding of an
/// edge: the sign of each orientation determinant is computed exactly (Shewchuk 1997, "Adaptive
/// Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates"), so the answer is
/// the polygons' own for every point not exactly on an edge, as GEOS's robust predicates give.
enum ExactPolygonTest {
    /// Even–odd containment in a little-endian WKB Polygon or MultiPolygon (the blobs of
    /// `boundaries.bin`). Walks the bytes in place; allocates nothing.
    static func contains(wkb: UnsafeRawBufferPointer, x: Double, y: Double) -> Bool {
        var inside = false
        forEachRing(wkb) { ring, count in
            if ringParity(x: x, y: y, ring: ring, count: count) { inside.toggle() }
        }
        return inside
    }

    /// ``contains(wkb:x:y:)`` with the polygon's ``EdgeRuns``: the runs of edges that cannot
    /// cross the ray are skipped, so the answer is the same, from a fraction of the edges.
    static func contains(wkb: UnsafeRawBufferPointer, x: Double, y: Double, runs: EdgeRuns) -> Bool {
        var inside = false, run = 0
        forEachRing(wkb) { ring, count in
            EdgeRuns.forEachRun(ofRingOf: count) { first, last in
                defer { run += 1 }
                // No edge of the run spans y (half-open, as the test), or every vertex lies west
                // of the point, so that no edge crosses the ray: the run toggles nothing.
                guard y >= runs.south[run], y < runs.north[run], runs.east[run] >= x else { return }
                if ringParity(x: x, y: y, ring: ring + first &* 16, count: last - first + 1) { inside.toggle() }
            }
        }
        return inside
    }

    /// The rings of a little-endian WKB Polygon or MultiPolygon, in order: each ring's first
    /// (x, y) pair and its number of pairs.
    @inline(__always)
    static func forEachRing(_ wkb: UnsafeRawBufferPointer, _ body: (UnsafeRawPointer, Int) -> Void) {
        var offset = 0
        func u32() -> Int {
            defer { offset += 4 }
            return Int(UInt32(littleEndian: wkb.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        func polygon() {
            offset += 1  // byte order (always little-endian here)
            _ = u32()  // type 3
            for _ in 0..<u32() {
                let count = u32()
                body(wkb.baseAddress! + offset, count)
                offset += count * 16
            }
        }
        offset += 1
        if u32() == 6 {
            for _ in 0..<u32() { polygon() }
        } else {
            offset = 0
            polygon()
        }
    }

    /// A WKB polygon's edges in runs of up to ``length`` consecutive edges of a ring, with
    /// each run's least and greatest y and greatest x, in the order ``forEachRing(_:_:)`` and
    /// ``forEachRun(ofRingOf:_:)`` give them. For a build that tests many points against the
    /// same large polygons (an ocean's region has millions of vertices); a lookup tests too few
    /// to pay for them.
    struct EdgeRuns: Sendable {
        static let length = 32
        private(set) var south: [Double] = [], north: [Double] = [], east: [Double] = []

        init(wkb: UnsafeRawBufferPointer) {
            ExactPolygonTest.forEachRing(wkb) { ring, count in
                Self.forEachRun(ofRingOf: count) { first, last in
                    var s = Double.infinity, n = -Double.infinity, e = -Double.infinity
                    for i in first...last {
                        let x = ring.loadUnaligned(fromByteOffset: i * 16, as: Double.self)
                        let y = ring.loadUnaligned(fromByteOffset: i * 16 + 8, as: Double.self)
                        s = min(s, y)
                        n = max(n, y)
                        e = max(e, x)
                    }
                    south.append(s)
                    north.append(n)
                    east.append(e)
                }
            }
        }

        /// The runs of a ring of `count` vertices: the first and last vertex of each (a run of
        /// edges first..<last shares its last vertex with the next run's first).
        @inline(__always)
        static func forEachRun(ofRingOf count: Int, _ body: (_ first: Int, _ last: Int) -> Void) {
            let edges = max(count - 1, 0)
            var first = 0
            while first < edges {
                let last = min(first + length, edges)
                body(first, last)
                first = last
            }
        }
    }

    /// True when a horizontal ray from (x, y) eastwards crosses the closed ring of `count`
    /// (x, y) doubles an odd number of times (half-open in y, as the index's test).
    static func ringParity(x: Double, y: Double, ring: UnsafeRawPointer, count: Int) -> Bool {
        var odd = false
        func point(_ i: Int) -> (Double, Double) {
            (
                ring.loadUnaligned(fromByteOffset: i * 16, as: Double.self),
                ring.loadUnaligned(fromByteOffset: i * 16 + 8, as: Double.self)
            )
        }
        var (xi, yi) = point(0)
        for k in 1..<max(count, 1) {
            let (xj, yj) = point(k)
            if (yi > y) != (yj > y) {
                let det = orientation(xi, yi, xj, yj, x, y)
                if det != 0 && (yj > yi) == (det > 0) { odd.toggle() }
            }
            xi = xj
            yi = yj
        }
        return odd
    }

    /// The sign (−1, 0 or 1) of (xj − xi)(y − yi) − (x − xi)(yj − yi), exactly: the rounded
    /// value where Shewchuk's error bound `ccwerrboundA` = (3 + 16ε)ε proves its sign, otherwise
    /// each difference as a two-term expansion (TwoDiff), each product of terms as two (FMA
    /// TwoProduct), summed into a non-overlapping expansion (Grow-Expansion) whose largest
    /// non-zero component carries the sign.
    static func orientation(_ xi: Double, _ yi: Double, _ xj: Double, _ yj: Double, _ x: Double, _ y: Double) -> Double {
        let left = (xj - xi) * (y - yi), right = (x - xi) * (yj - yi)
        let det = left - right
        if abs(det) > errorBound * (abs(left) + abs(right)) { return det > 0 ? 1 : -1 }
        return exactOrientation(xi, yi, xj, yj, x, y)
    }

    static let errorBound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53

    private static func exactOrientation(_ xi: Double, _ yi: Double, _ xj: Double, _ yj: Double, _ x: Double, _ y: Double) -> Double {
        func twoDiff(_ a: Double, _ b: Double) -> (Double, Double) {
            let s = a - b, bb = a - s
            return (s, (a - (s + bb)) + (bb - b))
        }
        let a = twoDiff(xj, xi), b = twoDiff(y, yi), c = twoDiff(x, xi), d = twoDiff(yj, yi)
        var expansion: [Double] = []
        expansion.reserveCapacity(17)
        func add(_ term: Double) {
            var q = term
            for i in expansion.indices {
                let s = q + expansion[i], bv = s - q
                expansion[i] = (q - (s - bv)) + (expansion[i] - bv)
                q = s
            }
            expansion.append(q)
        }
        for (p, q, sign) in [
            (a.0, b.0, 1.0), (a.0, b.1, 1), (a.1, b.0, 1), (a.1, b.1, 1),
            (c.0, d.0, -1), (c.0, d.1, -1), (c.1, d.0, -1), (c.1, d.1, -1),
        ] {
            let product = p * q
            add(sign * product)
            add(sign * (-product).addingProduct(p, q))
        }
        return expansion.last(where: { $0 != 0 }).map { $0 > 0 ? 1 : -1 } ?? 0
    }
}

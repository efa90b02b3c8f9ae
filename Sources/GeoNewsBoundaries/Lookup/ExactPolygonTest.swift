/// Point-in-polygon with exact arithmetic, for the few points that lie within rounding of an
/// edge: the sign of each orientation determinant is computed exactly (Shewchuk 1997, "Adaptive
/// Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates"), so the answer is
/// the polygons' own for every point not exactly on an edge, as GEOS's robust predicates give.
enum ExactPolygonTest {
    /// Even–odd containment in a little-endian WKB Polygon or MultiPolygon (the blobs of
    /// `boundaries.bin`). Walks the bytes in place; allocates nothing.
    static func contains(wkb: UnsafeRawBufferPointer, x: Double, y: Double) -> Bool {
        var offset = 0
        func u32() -> Int {
            defer { offset += 4 }
            return Int(UInt32(littleEndian: wkb.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        var inside = false
        func polygon() {
            offset += 1  // byte order (always little-endian here)
            _ = u32()  // type 3
            for _ in 0..<u32() {
                let count = u32()
                if ringParity(x: x, y: y, ring: wkb.baseAddress! + offset, count: count) { inside.toggle() }
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
        return inside
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

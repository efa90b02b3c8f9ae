/// Geodesics on an ellipsoid of revolution by Karney's method: C. F. F. Karney, "Algorithms for
/// geodesics", J. Geodesy 87, 43–55 (2013), doi:10.1007/s00190-012-0578-z.
///
/// The series are taken to sixth order in the third flattening n, as in GeographicLib, and the
/// inverse problem is solved by Newton's method on the azimuth at the first point, started
/// from the astroid solution (§5) near the antipode. On WGS 84 the result is accurate to
/// about 15 nanometres, and it converges everywhere: coincident points, the poles, the
/// equator, meridians and antipodal and nearly antipodal pairs. The tests compare it with
/// GeographicLib 2.1 (`Geodesic.WGS84.Inverse`) on a committed set of reference pairs.
///
/// A `Geodesic` is immutable and holds a few dozen precomputed coefficients; share one.
public struct Geodesic: Sendable {
    /// The WGS 84 ellipsoid: a = 6 378 137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// Equatorial radius a, in metres.
    public let equatorialRadius: Double
    /// Flattening f = (a − b) / a.
    public let flattening: Double

    /// 1 − f.
    let f1: Double
    /// Second eccentricity squared, e′² = e² / (1 − e²).
    let ep2: Double
    /// Third flattening n = f / (2 − f).
    let n: Double
    /// Polar semi-axis b = a (1 − f), metres.
    let b: Double
    /// Below this σ₁₂ a short line is solved on the sphere of radius b·dnm, eq. (13)–(15).
    let etol2: Double
    /// The coefficients of A₃ (eq. (24)) as a polynomial in ε, highest power first.
    let a3x: SIMD8<Double>
    /// The coefficients of C₃ₗ (eq. (25)), l = 1…5, each a polynomial in ε.
    let c3x: SIMD16<Double>

    /// An ellipsoid with positive, finite `equatorialRadius` (metres) and a flattening in
    /// −1/50…1/50 or so, where the sixth-order series hold to the rounding of a Double.
    init(equatorialRadius a: Double, flattening f: Double) {
        equatorialRadius = a
        flattening = f
        f1 = 1 - f
        let e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        let tol2 = Double.ulpOfOne.squareRoot()
        etol2 = 0.1 * tol2 / (max(0.001, abs(f)) * min(1.0, 1 - f / 2) / 2).squareRoot()
        a3x = Self.a3Coefficients(n)
        c3x = Self.c3Coefficients(n)
    }

    /// A₃ at ε, eq. (24).
    @inline(__always)
    func a3(_ eps: Double) -> Double {
        var y = a3x[0]
        for i in 1..<6 { y = y * eps + a3x[i] }
        return y
    }

    /// C₃ₗ at ε, l = 1…5 (lane 6 is zero), eq. (25).
    @inline(__always)
    func c3(_ eps: Double) -> SIMD8<Double> {
        var c = SIMD8<Double>()
        var mult = 1.0, o = 0
        for l in 1..<6 {
            let m = 6 - l - 1
            mult *= eps
            var y = c3x[o]
            for i in 0..<m { y = y * eps + c3x[o + 1 + i] }
            c[l] = mult * y
            o += m + 1
        }
        return c
    }

    // A₃ and C₃ as GeographicLib tabulates them: for each power of ε (highest first), a
    // polynomial in n, highest power first, then its denominator.
    private static let a3Table: [Double] = [
        -3, 128,
        -2, -3, 64,
        -1, -3, -1, 16,
        3, -1, -2, 8,
        1, -1, 2,
        1, 1,
    ]
    private static let c3Table: [Double] = [
        3, 128,
        2, 5, 128,
        -1, 3, 3, 64,
        -1, 0, 1, 8,
        -1, 1, 4,
        5, 256,
        1, 3, 128,
        -3, -2, 3, 64,
        1, -3, 2, 32,
        7, 512,
        -10, 9, 384,
        5, -9, 5, 192,
        7, 512,
        -14, 7, 512,
        21, 2560,
    ]

    private static func a3Coefficients(_ n: Double) -> SIMD8<Double> {
        var x = SIMD8<Double>()
        a3Table.withUnsafeBufferPointer { p in
            var o = 0, k = 0
            for j in stride(from: 5, through: 0, by: -1) {
                let m = min(6 - j - 1, j)
                x[k] = GeodesicSeries.polynomial(m, p, o, n) / p[o + m + 1]
                k += 1
                o += m + 2
            }
        }
        return x
    }

    private static func c3Coefficients(_ n: Double) -> SIMD16<Double> {
        var x = SIMD16<Double>()
        c3Table.withUnsafeBufferPointer { p in
            var o = 0, k = 0
            for l in 1..<6 {
                for j in stride(from: 5, through: l, by: -1) {
                    let m = min(6 - j - 1, j)
                    x[k] = GeodesicSeries.polynomial(m, p, o, n) / p[o + m + 1]
                    k += 1
                    o += m + 2
                }
            }
        }
        return x
    }
}

/// The series of Karney (2013) for the geodesic, expanded to sixth order in ε (and, for the
/// longitude integral I₃, in the third flattening n), as GeographicLib evaluates them with
/// `GEOGRAPHICLIB_GEODESIC_ORDER = 6`: the truncation error is O(ε⁷) ≈ O(n⁷), about 1e-20 for
/// WGS 84 (n ≈ 1/595), below the rounding of a Double.
///
/// Each Fourier series is held in a `SIMD8<Double>` whose lanes 1…6 are the coefficients
/// (lane 0 and 7 unused), and the polynomials of eqs. (17), (18), (42) and (43) are written
/// out, GeographicLib's tables evaluated by hand: evaluating a geodesic touches no array, so
/// threads share nothing (a shared array's reference count would bounce between cores).
enum GeodesicSeries {
    /// Evaluates y = Σₖ p[start + k] x^(degree − k), Horner's rule.
    @inline(__always)
    static func polynomial(_ degree: Int, _ p: UnsafeBufferPointer<Double>, _ start: Int, _ x: Double) -> Double {
        guard degree >= 0 else { return 0 }
        var y = p[start]
        var i = start
        for _ in 0..<degree {
            i += 1
            y = y * x + p[i]
        }
        return y
    }

    /// A₁ − 1, Karney (2013) eq. (17): A₁ = (1 + ε²/4 + ε⁴/64 + ε⁶/256) / (1 − ε).
    @inline(__always)
    static func a1Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = ((e2 + 4) * e2 + 64) * e2 / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ, l = 1…6, Karney (2013) eq. (18): the coefficients of the distance integral I₁.
    @inline(__always)
    static func c1(_ eps: Double) -> SIMD8<Double> {
        var c = SIMD8<Double>()
        let e2 = eps * eps
        var d = eps
        c[1] = d * ((-e2 + 6) * e2 - 16) / 32
        d *= eps
        c[2] = d * ((-9 * e2 + 64) * e2 - 128) / 2048
        d *= eps
        c[3] = d * (9 * e2 - 16) / 768
        d *= eps
        c[4] = d * (3 * e2 - 5) / 512
        d *= eps
        c[5] = d * -7 / 1280
        d *= eps
        c[6] = d * -7 / 2048
        return c
    }

    /// A₂ − 1, Karney (2013) eq. (42), in the form GeographicLib 2 evaluates:
    /// A₂ = (1 − 3ε²/4 − 7ε⁴/64 − 11ε⁶/256) / (1 + ε).
    @inline(__always)
    static func a2Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = ((-11 * e2 - 28) * e2 - 192) * e2 / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂ₗ, l = 1…6, Karney (2013) eq. (43): the coefficients of the reduced-length integral I₂.
    @inline(__always)
    static func c2(_ eps: Double) -> SIMD8<Double> {
        var c = SIMD8<Double>()
        let e2 = eps * eps
        var d = eps
        c[1] = d * ((e2 + 2) * e2 + 16) / 32
        d *= eps
        c[2] = d * ((35 * e2 + 64) * e2 + 384) / 2048
        d *= eps
        c[3] = d * (15 * e2 + 80) / 768
        d *= eps
        c[4] = d * (7 * e2 + 35) / 512
        d *= eps
        c[5] = d * 63 / 1280
        d *= eps
        c[6] = d * 77 / 2048
        return c
    }

    /// Σ Cₗ sin 2lσ, l = 1…6, by Clenshaw summation (Karney 2013, eq. (59)).
    @inline(__always)
    static func sinSeries(_ sinσ: Double, _ cosσ: Double, _ c: SIMD8<Double>) -> Double {
        let ar = 2 * (cosσ - sinσ) * (cosσ + sinσ)  // 2 cos 2σ
        var y0 = 0.0, y1 = 0.0
        for k in stride(from: 6, to: 0, by: -2) {
            y1 = ar * y0 - y1 + c[k]
            y0 = ar * y1 - y0 + c[k - 1]
        }
        return 2 * sinσ * cosσ * y0
    }
}

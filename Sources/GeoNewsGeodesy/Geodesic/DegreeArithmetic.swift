#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Angle arithmetic in degrees that keeps exact values exact, after GeographicLib's `Math`
/// (Karney 2013, §2 and the appendix of the GeographicLib documentation).
///
/// Reducing in degrees before converting to radians makes sin 90° exactly 1 and cos 90°
/// exactly 0, and keeps a longitude difference such as 179.9999999999 − (−180) accurate to the
/// last bit; the inverse problem needs both for meridional, equatorial and antipodal pairs.
enum DegreeArithmetic {
    /// u + v = s + t exactly, with s the rounded sum (Knuth's TwoSum).
    @inline(__always)
    static func sum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, s == 0 ? 0 : 0 - (up + vpp))
    }

    /// Rounds tiny angles so that values below 1/2⁵⁷ of a degree underflow to zero: about
    /// 0.7 pm on the Earth, far below what a Double holds near 90°, and it spares the
    /// algorithm nearly singular inputs such as 1e-200°.
    @inline(__always)
    static func rounded(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return x.sign == .minus ? -y : y
    }

    /// y − x reduced to −180…180, as a rounded part `d` and the error `t` of the rounding.
    @inline(__always)
    static func difference(_ x: Double, _ y: Double) -> (d: Double, t: Double) {
        var (d, t) = sum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        (d, t) = sum(d.remainder(dividingBy: 360), t)
        if d == 0 || abs(d) == 180 {
            // The sign of an exact 0 or ±180 follows the unreduced difference.
            let sign = t == 0 ? y - x : -t
            d = sign.sign == .minus ? -abs(d) : abs(d)
        }
        return (d, t)
    }

    /// sin and cos of `x` degrees, exact at multiples of 90°.
    @inline(__always)
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        var r = x.isFinite ? fmod(x, 360) : .nan
        let q = r.isNaN ? 0 : Int((r / 90).rounded(.toNearestOrEven))
        r -= 90 * Double(q)
        return quadrant(q, radians: r * .pi / 180, signOf: x)
    }

    /// sin and cos of `x + t` degrees, for `x` in −180…180 and a small correction `t`.
    @inline(__always)
    static func sinCos(_ x: Double, plus t: Double) -> (sin: Double, cos: Double) {
        let q = x.isFinite ? Int((x / 90).rounded(.toNearestOrEven)) : 0
        let r = x - 90 * Double(q)
        return quadrant(q, radians: rounded(r + t) * .pi / 180, signOf: x)
    }

    @inline(__always)
    private static func quadrant(_ q: Int, radians r: Double, signOf x: Double) -> (sin: Double, cos: Double) {
        var s = sin(r), c = cos(r)
        switch q & 3 {
        case 1: (s, c) = (c, -s)
        case 2: (s, c) = (-s, -c)
        case 3: (s, c) = (-c, s)
        default: break
        }
        c += 0  // −0 becomes +0
        if s == 0 { s = x.sign == .minus ? -0.0 : 0.0 }
        return (s, c)
    }

    /// atan2(y, x) in degrees, in −180…180, exact for the axis directions.
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var x = x, y = y, q = 0
        if abs(y) > abs(x) { q = 2; swap(&x, &y) }
        if x < 0 { q += 1; x = -x }
        let angle = atan2(y, x) * 180 / .pi
        switch q {
        case 1: return (y.sign == .minus ? -180 : 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// (x, y) scaled to unit length.
    @inline(__always)
    static func normalized(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }
}

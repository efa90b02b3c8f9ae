#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Geodesic {
    /// The starting α₁ of Karney (2013), §5: the great circle on a sphere scaled by the mean
    /// dn for short lines (eqs. (13)–(15)); near the antipode, the solution of the astroid
    /// equation (eqs. (55)–(57)), which is where a spherical guess makes Newton's method fail.
    func inverseStart(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double,
        _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ lam12: Double, _ slam12: Double, _ clam12: Double
    ) -> InverseStart {
        var start = InverseStart(sig12: -1, salp1: 0, calp1: 0, salp2: .nan, calp2: .nan, dnm: .nan)
        // sin and cos of β₂ − β₁, and sin(β₂ + β₁) computed with less cancellation.
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        var sbet12a = sbet2 * cbet1
        sbet12a += cbet2 * sbet1

        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortLine {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            // sin²βm, with βm the mean of β₁ and β₂.
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            start.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * start.dnm)
            somg12 = sin(omg12); comg12 = cos(omg12)
        } else {
            somg12 = slam12; comg12 = clam12
        }

        // α₁ of the great circle through the two points on the sphere with ω₁₂, eq. (14).
        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)

        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortLine && ssig12 < etol2 {
            // Really short: the sphere's solution is the answer, eq. (15).
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            (salp2, calp2) = DegreeArithmetic.normalized(salp2, calp2)
            start.salp2 = salp2; start.calp2 = calp2
            start.sig12 = atan2(ssig12, csig12)
        } else if abs(n) >= 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // Not nearly antipodal: the spherical α₁ is good enough to start from.
        } else {
            // Nearly antipodal (this branch needs f > 0, as WGS 84's): scale to the astroid's
            // coordinates x, y of eq. (53) and solve it.
            let lam12x = atan2(-slam12, -clam12)  // λ₁₂ − π
            let k2 = sbet1 * sbet1 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamScale = flattening * cbet1 * a3(eps) * .pi
            let betScale = lamScale * cbet1
            let x = lam12x / lamScale
            let y = sbet12a / betScale
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                // Points on or near the equator: α₁ from x alone, eq. (56).
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = Self.astroid(x, y)
                let omg12a = lamScale * (-x * k / (1 + k))
                somg12 = sin(omg12a); comg12 = -cos(omg12a)
                // Eq. (14) again, with ω₁₂ from the astroid, eq. (57).
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(salp1 <= 0) {
            (salp1, calp1) = DegreeArithmetic.normalized(salp1, calp1)
        } else {
            salp1 = 1; calp1 = 0
        }
        start.salp1 = salp1; start.calp1 = calp1
        return start
    }

    /// The positive root k of the astroid equation k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0,
    /// Karney (2013) eq. (55), solved in closed form as a quartic (the reduction of the
    /// appendix, GeographicLib's `Astroid`), stable for all x and y.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4  // S = r³ s
        let r2 = r * r, r3 = r * r2
        // The discriminant of the quadratic for T³, positive or zero for real roots.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // Choose the sign of the root to avoid cancellation; T³ = (r t)³.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)  // T = r t
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // T is complex but u is real: use the trigonometric form.
            let ang = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = (u * u + q).squareRoot()  // > 0
        let uv = u < 0 ? q / (v - u) : u + v  // u + v, > 0, without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)  // > 0
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Geodesic {
    /// λ₁₂ for a trial α₁, eqs. (5), (6), (8)–(10) with the longitude integral I₃ of eq. (23);
    /// with `derivative`, also ∂λ₁₂/∂α₁ = (1 − f) m₁₂ / (a cos α₂ cos β₂), eq. (46) (and its
    /// limit −2(1 − f) dn₁ / sin β₁ when cos α₂ = 0).
    @inline(__always)
    func lambda12(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double,
        _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ salp1: Double, _ calp1In: Double,
        _ slam120: Double, _ clam120: Double, derivative: Bool
    ) -> HybridSolution {
        // Break the degeneracy of equatorial lines heading due north or south.
        let calp1 = sbet1 == 0 && calp1In == 0 ? -Self.tiny : calp1In

        // α₀, the azimuth where the geodesic crosses the equator northwards, eq. (5).
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)  // > 0

        // σ₁ and ω₁ from tan σ₁ = tan β₁ / cos α₁ and tan ω₁ = sin α₀ tan β₁, eq. (11).
        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        let (ssig1, csig1) = DegreeArithmetic.normalized(sbet1, comg1)

        // α₂ from Clairaut's relation, eq. (5); cos α₂ by eq. (45), written to keep accuracy
        // for either sign of β₁.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let d = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + d).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        let somg2 = salp0 * sbet2
        let comg2 = calp2 * cbet2
        let (ssig2, csig2) = DegreeArithmetic.normalized(sbet2, comg2)

        // σ₁₂ = σ₂ − σ₁ and ω₁₂ = ω₂ − ω₁, each in 0…π.
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ − λ₁₂ (wanted), computed as one angle for accuracy.
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        // λ₁₂ = ω₁₂ − f sin α₀ I₃(σ), eqs. (8), (23)–(25).
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = c3(eps)
        let b312 = GeodesicSeries.sinSeries(ssig2, csig2, c3) - GeodesicSeries.sinSeries(ssig1, csig1, c3)
        let domg12 = -flattening * a3(eps) * salp0 * (sig12 + b312)

        var dlam12 = Double.nan
        if derivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let m12b = lengths(eps, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, reducedLength: true, distance: false).m12b
                dlam12 = m12b * f1 / (calp2 * cbet2)
            }
        }
        return HybridSolution(
            lam12: eta + domg12, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2,
            sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2,
            eps: eps, dlam12: dlam12)
    }

    /// The distance s₁₂ / b (eqs. (7), (15)–(18)) and, with `reducedLength`, the reduced length
    /// m₁₂ / b (eqs. (38), (40)–(43)) between σ₁ and σ₂ on a geodesic with parameter ε.
    @inline(__always)
    func lengths(
        _ eps: Double, _ sig12: Double,
        _ ssig1: Double, _ csig1: Double, _ dn1: Double,
        _ ssig2: Double, _ csig2: Double, _ dn2: Double,
        reducedLength: Bool, distance: Bool = true
    ) -> (s12b: Double, m12b: Double) {
        let a1m1 = GeodesicSeries.a1Minus1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let a1 = 1 + a1m1
        guard reducedLength else {
            let b1 = GeodesicSeries.sinSeries(ssig2, csig2, c1) - GeodesicSeries.sinSeries(ssig1, csig1, c1)
            return (a1 * (sig12 + b1), .nan)
        }
        let a2m1 = GeodesicSeries.a2Minus1(eps)
        let c2 = GeodesicSeries.c2(eps)
        let m0x = a1m1 - a2m1
        let a2 = 1 + a2m1
        var s12b = Double.nan
        let j12: Double
        if distance {
            let b1 = GeodesicSeries.sinSeries(ssig2, csig2, c1) - GeodesicSeries.sinSeries(ssig1, csig1, c1)
            let b2 = GeodesicSeries.sinSeries(ssig2, csig2, c2) - GeodesicSeries.sinSeries(ssig1, csig1, c2)
            s12b = a1 * (sig12 + b1)
            j12 = m0x * sig12 + (a1 * b1 - a2 * b2)
        } else {
            // J₁₂ = I₁ − I₂ as one series.
            let c12 = a1 * c1 - a2 * c2
            j12 = m0x * sig12 + (GeodesicSeries.sinSeries(ssig2, csig2, c12) - GeodesicSeries.sinSeries(ssig1, csig1, c12))
        }
        // m₁₂ = b [dn₂ cos σ₁ sin σ₂ − dn₁ sin σ₁ cos σ₂ − cos σ₁ cos σ₂ J₁₂], eq. (38).
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }
}

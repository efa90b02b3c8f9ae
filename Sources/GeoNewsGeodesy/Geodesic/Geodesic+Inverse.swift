#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Geodesic {
    /// The shortest geodesic from `start` to `end`: its length and the azimuths at both ends
    /// (Karney 2013, §4 and §5).
    ///
    /// Accepts any pair of latitudes in −90…90 and any longitudes (they are reduced modulo
    /// 360°): coincident points (distance 0), the poles, both sides of the antimeridian,
    /// equatorial, meridional, antipodal and nearly antipodal pairs. On WGS 84 the distance is
    /// accurate to about 15 nm (Karney 2013, §6) and agrees with GeographicLib 2.1 to 1e-8 m on
    /// the reference pairs; the azimuths agree to 1e-10° on lines of 1 km or more (on shorter
    /// lines an azimuth is only as well defined as the last bits of the coordinates). A
    /// latitude outside −90…90 or a NaN gives NaN in every field.
    public func inverse(from start: Coordinate, to end: Coordinate) -> GeodesicInverse {
        // Reduce to 0 ≤ λ₁₂ ≤ 180°, φ₁ ≤ 0 and |φ₁| ≥ |φ₂| (§4), remembering the symmetries.
        var (lon12, lon12s) = DegreeArithmetic.difference(start.longitude, end.longitude)
        var lonSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonSign
        lon12s *= lonSign
        let lam12 = lon12 * .pi / 180
        let (slam12, clam12) = DegreeArithmetic.sinCos(lon12, plus: lon12s)
        lon12s = (180 - lon12) - lon12s  // the supplementary longitude difference

        var lat1 = DegreeArithmetic.rounded(abs(start.latitude) > 90 ? .nan : start.latitude)
        var lat2 = DegreeArithmetic.rounded(abs(end.latitude) > 90 ? .nan : end.latitude)
        let swapped = abs(lat1) < abs(lat2) || lat2.isNaN
        if swapped {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        // Reduced latitudes β (tan β = (1 − f) tan φ), as sines and cosines; cos β is kept
        // positive so that the poles are approached as limits.
        var (sbet1, cbet1) = DegreeArithmetic.sinCos(lat1)
        (sbet1, cbet1) = DegreeArithmetic.normalized(sbet1 * f1, cbet1)
        cbet1 = max(Self.tiny, cbet1)
        var (sbet2, cbet2) = DegreeArithmetic.sinCos(lat2)
        (sbet2, cbet2) = DegreeArithmetic.normalized(sbet2 * f1, cbet2)
        cbet2 = max(Self.tiny, cbet2)

        // |β₁| = |β₂| exactly when |φ₁| = |φ₂|, which the test for the equatorial and the
        // antipodal cases relies on.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? -abs(sbet1) : abs(sbet1) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }

        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var sig12 = 0.0, s12x = 0.0
        var solved = false

        // A meridian (or a start at a pole) is a geodesic; it is the shortest one while the
        // reduced length m₁₂ stays non-negative (no conjugate point is passed).
        if lat1 == -90 || slam12 == 0 {
            calp1 = clam12; salp1 = slam12  // head to the target longitude
            calp2 = 1; salp2 = 0  // at the target the heading is north
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            let lengths = lengths(n, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, reducedLength: true)
            if sig12 < Self.tol2 || lengths.m12b >= 0 {
                if sig12 < 3 * Self.tiny || (sig12 < Self.tol0 && (lengths.s12b < 0 || lengths.m12b < 0)) {
                    sig12 = 0
                    s12x = 0
                } else {
                    s12x = lengths.s12b * b
                }
                solved = true
            }
        }

        if !solved && sbet1 == 0 && (flattening <= 0 || lon12s >= flattening * 180) {
            // Along the equator, short of the point where the equator stops being shortest.
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12x = equatorialRadius * lam12
            sig12 = lam12 / f1
        } else if !solved {
            let guess = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            salp1 = guess.salp1; calp1 = guess.calp1
            if guess.sig12 >= 0 {
                // Short line: the great circle on a sphere of radius b·dnm, eqs. (13)–(15).
                salp2 = guess.salp2; calp2 = guess.calp2
                sig12 = guess.sig12
                s12x = guess.sig12 * b * guess.dnm
            } else {
                let path = solveAzimuth(sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12)
                salp1 = path.salp1; calp1 = path.calp1; salp2 = path.salp2; calp2 = path.calp2
                sig12 = path.sig12
                s12x =
                    lengths(
                        path.eps, path.sig12, path.ssig1, path.csig1, dn1, path.ssig2, path.csig2, dn2,
                        reducedLength: false
                    ).s12b * b
            }
        }

        // Undo the reductions of the first lines.
        if swapped {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        let sSign = (swapped ? -1.0 : 1.0) * lonSign, cSign = (swapped ? -1.0 : 1.0) * latSign
        salp1 *= sSign; calp1 *= cSign
        salp2 *= sSign; calp2 *= cSign
        return GeodesicInverse(
            distanceMetres: 0 + s12x,
            initialAzimuth: DegreeArithmetic.atan2Degrees(salp1, calp1),
            finalAzimuth: DegreeArithmetic.atan2Degrees(salp2, calp2),
            arcDegrees: sig12 * 180 / .pi)
    }

    /// The path from Newton's method on α₁ (§5): λ₁₂(α₁) is solved for the wanted longitude
    /// difference, with bisection as the fallback whenever a Newton step leaves the bracket.
    private func solveAzimuth(
        _ sbet1: Double, _ cbet1: Double, _ dn1: Double,
        _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
        _ salp1In: Double, _ calp1In: Double,
        _ slam12: Double, _ clam12: Double
    ) -> HybridSolution {
        var salp1 = salp1In, calp1 = calp1In
        var iterations = 0
        var tripNewton = false, tripBisection = false
        // The bracket [α₁a, α₁b] of the solution, as sines and cosines.
        var salp1a = Self.tiny, calp1a = 1.0
        var salp1b = Self.tiny, calp1b = -1.0
        while true {
            let h = lambda12(
                sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12,
                derivative: iterations < Self.maxNewton)
            let v = h.lam12
            if tripBisection || !(abs(v) >= (tripNewton ? 8 : 1) * Self.tol0) || iterations == Self.maxIterations {
                var solution = h
                solution.calp1 = calp1  // not the nudge lambda12 gives a due-north equatorial start
                return solution
            }
            if v > 0 && (iterations > Self.maxNewton || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1; calp1b = calp1
            } else if v < 0 && (iterations > Self.maxNewton || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1; calp1a = calp1
            }
            iterations += 1
            if iterations < Self.maxNewton && h.dlam12 > 0 {
                let dalp1 = -v / h.dlam12
                if abs(dalp1) < .pi {
                    let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        salp1 = nsalp1
                        (salp1, calp1) = DegreeArithmetic.normalized(salp1, calp1)
                        // Near convergence, allow a slightly larger residual before stopping:
                        // a Newton step that makes no progress ends the loop.
                        tripNewton = abs(v) <= 16 * Self.tol0
                        continue
                    }
                }
            }
            // Newton's step left [α₁a, α₁b] or was not tried: bisect.
            (salp1, calp1) = DegreeArithmetic.normalized((salp1a + salp1b) / 2, (calp1a + calp1b) / 2)
            tripNewton = false
            tripBisection =
                abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
                || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
        }
    }

    // Tolerances of GeographicLib's Geodesic, in terms of the machine epsilon.
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * Double.ulpOfOne
    static let tol2 = Double.ulpOfOne.squareRoot()
    static let tolb = Double.ulpOfOne
    static let xthresh = 1000 * Double.ulpOfOne.squareRoot()
    /// Newton steps before falling back to bisection only.
    static let maxNewton = 20
    /// A hard bound: bisection halves a bracket of π at most 53 + 10 times more.
    static let maxIterations = 20 + Double.significandBitCount + 1 + 10
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle geometry on a sphere of the IUGG mean Earth radius.
///
/// Distances use the haversine formula (Sinnott 1984): well conditioned from a centimetre up
/// to nearly half the globe, and within a metre of the exact spherical value even at the
/// antipode, where `asin` near 1 costs precision. The Earth is not a sphere: against the
/// geodesic on the WGS 84 ellipsoid (Karney 2013, GeographicLib) the spherical distance is off
/// by at most about 0.57 %: short north–south arcs near the equator come out 0.56 % long
/// (the meridian's radius of curvature there is 6335 km) and near the poles 0.45 % short
/// (6400 km); long mixed paths are typically within 0.3 %. That is far below what choosing a
/// news country needs; use an ellipsoidal geodesic where metres matter.
public enum GreatCircle {
    /// IUGG mean Earth radius R₁ = (2a + b) / 3 for WGS 84, in kilometres.
    public static let meanEarthRadiusKm = 6371.0088

    /// The great-circle distance between two positions, in kilometres.
    ///
    /// Accepts the poles and both sides of the antimeridian; the result is in 0…πR.
    @inlinable
    public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
        distance(from: a, to: b, cosineOfLatitude: cos(b.latitude * .pi / 180))
    }

    /// ``distance(from:to:)`` given the cosine of `b`'s latitude, for many
    /// distances to one point: the same result, bit for bit, with one call of `cos` fewer.
    @inlinable
    public static func distance(from a: Coordinate, to b: Coordinate, cosineOfLatitude cosφ2: Double) -> Double {
        distance(from: a, to: b, cosinesOfLatitude: cos(a.latitude * .pi / 180), cosφ2)
    }

    /// ``distance(from:to:)`` given the cosines of both latitudes (`cosφ1` of `a`'s, `cosφ2`
    /// of `b`'s, each `cos(latitude · π / 180)`), for many distances from one point or to
    /// one point: the same result, bit for bit.
    @inlinable
    public static func distance(from a: Coordinate, to b: Coordinate, cosinesOfLatitude cosφ1: Double, _ cosφ2: Double) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (b.longitude - a.longitude) * .pi / 180
        let s1 = sin(dφ / 2), s2 = sin(dλ / 2)
        let h = s1 * s1 + cosφ1 * cosφ2 * s2 * s2
        // min() guards against h creeping past 1 through rounding near the antipode.
        return 2 * meanEarthRadiusKm * asin(min(1, h.squareRoot()))
    }

    /// The initial bearing (forward azimuth) from `a` towards `b`, in degrees clockwise from
    /// true north, in 0..<360.
    ///
    /// At a pole every direction is south (or north); the formula then returns the bearing
    /// given by the longitudes, as GeographicLib does for its azimuth at a pole. Coincident
    /// points give 0.
    public static func initialBearing(from a: Coordinate, to b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let dλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let θ = atan2(y, x) * 180 / .pi
        let bearing = (θ + 360).truncatingRemainder(dividingBy: 360)
        return bearing == 360 ? 0 : bearing
    }

    /// The position reached from `start` after `distanceKm` along the great circle that leaves
    /// it at `bearing` degrees. Longitudes come back normalised to -180…180.
    public static func destination(from start: Coordinate, bearing: Double, distanceKm: Double) -> Coordinate {
        let δ = distanceKm / meanEarthRadiusKm
        let θ = bearing * .pi / 180
        let φ1 = start.latitude * .pi / 180, λ1 = start.longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return Coordinate(latitude: φ2 * 180 / .pi, longitude: normalizedLongitude(λ2 * 180 / .pi))
    }

    /// A longitude in degrees folded into -180…180.
    @inlinable
    public static func normalizedLongitude(_ lon: Double) -> Double {
        if lon >= -180 && lon <= 180 { return lon }
        var l = (lon + 180).truncatingRemainder(dividingBy: 360)
        if l < 0 { l += 360 }
        return l - 180
    }
}

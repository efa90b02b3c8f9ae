import CLaneMath

extension GreatCircle {
    /// ``distance(from:to:cosineOfLatitude:)`` for `count` pairs, four at a time in SIMD
    /// lanes, with the sine, cosine and arcsine computed inline instead of called from libm
    /// (see `lane_math.h`): `out[i]` is the km from (`latitudes[i]`, `longitudes[i]`) to
    /// (`toLatitudes[i]`, `toLongitudes[i]`), given `cosinesOfLatitude[i]`, the cosine of the
    /// latter's latitude.
    ///
    /// Within a few units in the last place of the scalar distance up to a few thousand
    /// kilometres (so a figure written to the metre differs only when it falls within a few
    /// picometres of a half metre), within 1e-13 of it up to 19,000 km, and within a
    /// millimetre near the antipode, where the haversine itself is good to a metre; and the
    /// same bits for a pair whatever else is measured with it, on every processor. A pair beyond what a
    /// ``Coordinate`` holds (|latitude| > 90°, |longitude| > 180°, or not finite) is measured
    /// by the scalar distance instead.
    public static func distances(
        count: Int, latitudes: UnsafePointer<Double>, longitudes: UnsafePointer<Double>, toLatitudes: UnsafePointer<Double>,
        toLongitudes: UnsafePointer<Double>, cosinesOfLatitude: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>
    ) {
        guard count > 0 else { return }
        geonews_haversine_km(
            count, latitudes, longitudes, toLatitudes, toLongitudes, cosinesOfLatitude, meanEarthRadiusKm, out)
        for i in 0..<count
        where !(abs(latitudes[i]) <= 90 && abs(longitudes[i]) <= 180 && abs(toLatitudes[i]) <= 90 && abs(toLongitudes[i]) <= 180) {
            out[i] = distance(
                from: Coordinate(latitude: latitudes[i], longitude: longitudes[i]),
                to: Coordinate(latitude: toLatitudes[i], longitude: toLongitudes[i]), cosineOfLatitude: cosinesOfLatitude[i])
        }
    }
}

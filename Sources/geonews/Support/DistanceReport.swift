import GeoNewsGeodesy

/// The distance and direction from one position to another, as `geonews distance` prints it
/// and as its `--json` writes it: the great circle on the mean-radius sphere always, and the
/// WGS 84 geodesic when asked for.
///
/// The JSON keys are part of the documented interface:
/// `from` and `to` (`lat`, `lon`, degrees); `greatCircle` (`distanceKm`, `initialBearing`
/// in degrees 0..<360); `geodesic`, `null` unless asked for, else `distanceM` (metres),
/// `distanceKm`, `initialAzimuth` and `finalAzimuth` (compass bearings in degrees, 0..<360).
/// Numbers are not rounded.
struct DistanceReport: Encodable, Hashable, Sendable {
    /// A position in degrees.
    struct Position: Encodable, Hashable, Sendable {
        /// Degrees north, −90…90.
        let lat: Double
        /// Degrees east, −180…180.
        let lon: Double
    }

    /// The path on the sphere of radius ``GreatCircle/meanEarthRadiusKm``.
    struct Sphere: Encodable, Hashable, Sendable {
        /// Great-circle distance in kilometres.
        let distanceKm: Double
        /// Initial bearing in degrees clockwise from true north, 0..<360.
        let initialBearing: Double
    }

    /// The geodesic on the WGS 84 ellipsoid.
    struct Ellipsoid: Encodable, Hashable, Sendable {
        /// Geodesic distance in metres, accurate to about 15 nanometres.
        let distanceM: Double
        /// The same in kilometres.
        let distanceKm: Double
        /// Azimuth at `from`, degrees clockwise from true north, 0..<360.
        let initialAzimuth: Double
        /// Azimuth at `to`, continuing the path, degrees clockwise from true north, 0..<360.
        let finalAzimuth: Double
    }

    /// Where the path starts.
    let from: Position
    /// Where it ends.
    let to: Position
    /// The great circle: always there.
    let greatCircle: Sphere
    /// `nil` unless the geodesic was asked for; written as `null`.
    let geodesic: Ellipsoid?

    /// Measures from `a` to `b`; with `ellipsoid`, also solves the WGS 84 geodesic
    /// (``Geodesic/inverse(from:to:)``). Positions are taken as given: validate user input
    /// with ``Coordinate/validated(latitude:longitude:)`` first.
    init(from a: Coordinate, to b: Coordinate, ellipsoid: Bool) {
        from = Position(lat: a.latitude, lon: a.longitude)
        to = Position(lat: b.latitude, lon: b.longitude)
        greatCircle = Sphere(
            distanceKm: GreatCircle.distance(from: a, to: b),
            initialBearing: GreatCircle.initialBearing(from: a, to: b))
        geodesic = ellipsoid ? Geodesic.wgs84.inverse(from: a, to: b).report : nil
    }

    private enum Keys: String, CodingKey { case from, to, greatCircle, geodesic }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(greatCircle, forKey: .greatCircle)
        try c.encode(geodesic, forKey: .geodesic)  // null rather than left out
    }
}

extension GeodesicInverse {
    var report: DistanceReport.Ellipsoid {
        DistanceReport.Ellipsoid(
            distanceM: distanceMetres, distanceKm: distanceKm,
            initialAzimuth: initialBearing, finalAzimuth: finalBearing)
    }
}

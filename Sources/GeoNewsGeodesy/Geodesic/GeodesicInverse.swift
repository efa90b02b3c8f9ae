/// The shortest path between two positions on the ellipsoid: the solution of the inverse
/// geodesic problem.
///
/// Azimuths are in degrees clockwise from true north, in −180…180 as GeographicLib gives
/// them; ``initialBearing`` and ``finalBearing`` fold them into 0..<360. Where the path is
/// not unique (antipodal points on the equator, or the poles), the azimuths are one valid
/// choice, GeographicLib's.
public struct GeodesicInverse: Hashable, Sendable {
    /// Length of the geodesic, in metres.
    public let distanceMetres: Double
    /// Azimuth of the geodesic at the first point, in degrees (−180…180).
    public let initialAzimuth: Double
    /// Azimuth of the geodesic at the second point, continuing the path, in degrees
    /// (−180…180).
    public let finalAzimuth: Double
    /// Arc length on the auxiliary sphere, σ₁₂, in degrees (0…180).
    public let arcDegrees: Double

    /// Length of the geodesic, in kilometres.
    public var distanceKm: Double { distanceMetres / 1000 }

    /// ``initialAzimuth`` as a compass bearing in 0..<360 degrees.
    public var initialBearing: Double { Self.bearing(initialAzimuth) }

    /// ``finalAzimuth`` as a compass bearing in 0..<360 degrees.
    public var finalBearing: Double { Self.bearing(finalAzimuth) }

    static func bearing(_ azimuth: Double) -> Double {
        let b = azimuth < 0 ? azimuth + 360 : azimuth
        return b >= 360 ? 0 : b + 0
    }
}

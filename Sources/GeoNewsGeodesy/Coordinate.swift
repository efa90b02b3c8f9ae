/// A position on the Earth in WGS 84 degrees.
///
/// Latitude runs over -90…90 and longitude over -180…180, both ends included: the poles and
/// the antimeridian are ordinary positions. ``init(latitude:longitude:)`` checks nothing, so
/// that hot loops pay nothing; input that comes from a user goes through ``validated(latitude:longitude:)``.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, -90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180…180.
    public var longitude: Double

    @inlinable
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A coordinate checked for range and for NaN or infinity.
    ///
    /// - Throws: ``CoordinateError`` naming the offending value.
    public static func validated(latitude: Double, longitude: Double) throws(CoordinateError) -> Coordinate {
        guard latitude.isFinite else { throw .notFinite(field: "latitude", value: latitude) }
        guard longitude.isFinite else { throw .notFinite(field: "longitude", value: longitude) }
        guard (-90.0...90.0).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard (-180.0...180.0).contains(longitude) else { throw .longitudeOutOfRange(longitude) }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    public var description: String { "\(latitude), \(longitude)" }
}

/// Why a pair of numbers is not a position.
public enum CoordinateError: Error, Equatable, Sendable, CustomStringConvertible {
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case notFinite(field: String, value: Double)
    case notANumber(field: String, text: String)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let v): return "latitude \(v) is outside -90…90"
        case .longitudeOutOfRange(let v): return "longitude \(v) is outside -180…180"
        case .notFinite(let field, let v): return "\(field) \(v) is not a finite number"
        case .notANumber(let field, let text): return "\(field) '\(text)' is not a number"
        }
    }
}

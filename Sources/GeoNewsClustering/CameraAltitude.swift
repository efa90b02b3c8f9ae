#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The height of a map camera above the ground, and the zoom level it shows.
///
/// Assumes MapKit's camera: a vertical field of view of 30°, looking straight down, over Web
/// Mercator tiles of `tileSize` points. At altitude `h` metres a viewport `H` points tall then
/// spans `2·h·tan(15°)` metres, so
///
///     metresPerPoint = h · 2·tan(15°) / H
///     zoom = log2(cos(latitude) · 2π · 6378137 / metresPerPoint / tileSize)
///
/// where 6378137 m is the WGS 84 equatorial radius of the Web Mercator sphere and
/// `cos(latitude)` is Mercator's scale at the view centre. 256-point tiles give one zoom
/// level more than 512-point ones. The ground is taken as flat over the view, which is fine
/// to within a few percent below about 1,000 km; at 15,000 km the globe curves away and a real
/// camera sees somewhat less than the formula says.
public struct CameraAltitude: Hashable, Sendable, CustomStringConvertible {
    /// Metres above the ground, greater than 0.
    public let metres: Double

    /// Vertical field of view of the camera, in degrees.
    public static let verticalFieldOfView = 30.0
    /// Radius of the Web Mercator sphere, in metres.
    public static let mercatorRadius = 6_378_137.0
    /// Latitude beyond which Web Mercator has no map, in degrees; centres are clamped to it.
    public static let mercatorLatitudeLimit = 85.051_128_779_806_59
    /// The altitudes ``init(parsing:)`` accepts, in metres: from 1 m (a street at zoom 26) to
    /// 1,000,000 km (beyond the Moon, where the whole world is a few points wide). Outside
    /// them no map shows anything different, and the zoom stays far from overflowing.
    public static let parsedMetres: ClosedRange<Double> = 1...1_000_000_000

    /// - Throws: ``CameraAltitudeError/notPositive(_:)`` unless `metres` is finite and above 0.
    public init(metres: Double) throws(CameraAltitudeError) {
        guard metres.isFinite, metres > 0 else { throw .notPositive("\(metres)m") }
        self.metres = metres
    }

    /// Parses a number followed by `km` or `m`: `15000km`, `10km`, `2500m`, `1.5 km`.
    ///
    /// - Throws: ``CameraAltitudeError`` naming the text when it is not of that form, not above
    ///   0, or outside ``parsedMetres`` (1 m … 1,000,000 km).
    public init(parsing text: String) throws(CameraAltitudeError) {
        let trimmed = text.trimmingWhitespace()
        let unit: Double, number: Substring
        if trimmed.hasSuffix("km") {
            unit = 1000
            number = trimmed.dropLast(2)
        } else if trimmed.hasSuffix("m") {
            unit = 1
            number = trimmed.dropLast(1)
        } else {
            throw .unparseable(text)
        }
        guard let value = Double(number.trimmingWhitespace()), value.isFinite else { throw .unparseable(text) }
        guard value > 0 else { throw .notPositive(text) }
        guard Self.parsedMetres.contains(value * unit) else { throw .outOfRange(text) }
        self.metres = value * unit
    }

    /// The zoom level this altitude shows.
    ///
    /// - Parameters:
    ///   - latitude: of the view centre in degrees; clamped to ±85.0511°.
    ///   - viewportHeight: in points, greater than 0 (844 is an iPhone 14 in portrait).
    ///   - tileSize: in points, 512 (MapKit, Mapbox GL) or 256 (raster tiles).
    /// - Returns: a fractional zoom, which may be negative for altitudes above the whole world.
    public func zoom(latitude: Double = 0, viewportHeight: Double = 844, tileSize: Double = 512) -> Double {
        let metresPerPoint = metres * 2 * tan(Self.verticalFieldOfView / 2 * .pi / 180) / viewportHeight
        return log2(Self.scale(latitude) * 2 * .pi * Self.mercatorRadius / metresPerPoint / tileSize)
    }

    /// The altitude that shows `zoom`, the inverse of ``zoom(latitude:viewportHeight:tileSize:)``.
    public static func forZoom(
        _ zoom: Double, latitude: Double = 0, viewportHeight: Double = 844, tileSize: Double = 512
    ) throws(CameraAltitudeError) -> CameraAltitude {
        let metresPerPoint = scale(latitude) * 2 * .pi * mercatorRadius / tileSize / pow(2, zoom)
        return try CameraAltitude(metres: metresPerPoint * viewportHeight / (2 * tan(verticalFieldOfView / 2 * .pi / 180)))
    }

    private static func scale(_ latitude: Double) -> Double {
        let φ = Swift.min(Swift.max(latitude, -mercatorLatitudeLimit), mercatorLatitudeLimit)
        return cos(φ * .pi / 180)
    }

    /// Kilometres when a whole number of them, metres otherwise: `15000km`, `2500m`.
    /// Exact conversions only: `init(metres:)` takes any finite altitude, far beyond `Int`.
    public var description: String {
        if metres >= 1000, let km = Int(exactly: metres / 1000) { return "\(km)km" }
        if let whole = Int(exactly: metres) { return "\(whole)m" }
        return "\(metres)m"
    }
}

/// Why a text or number is not a camera altitude.
public enum CameraAltitudeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unparseable(String)
    case notPositive(String)
    /// Above 0 but outside ``CameraAltitude/parsedMetres``.
    case outOfRange(String)

    public var description: String {
        switch self {
        case .unparseable(let t): return "altitude '\(t)' is not a number followed by km or m (e.g. 15000km, 2500m)"
        case .notPositive(let t): return "altitude '\(t)' must be above 0"
        case .outOfRange(let t): return "altitude '\(t)' is outside 1m…1000000km"
        }
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> Substring {
        let s = self[...]
        guard let first = s.firstIndex(where: { !$0.isWhitespace }),
            let last = s.lastIndex(where: { !$0.isWhitespace })
        else { return Substring() }
        return Substring(s[first...last])
    }
}

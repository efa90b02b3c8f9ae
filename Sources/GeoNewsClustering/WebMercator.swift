#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Spherical Web Mercator scaled to the unit square, exactly as supercluster computes it:
/// x grows east from 0 at −180° to 1 at 180°, y grows south from 0 at the top of the map
/// (85.0511°N) to 1 at the bottom; latitudes beyond the map are clamped onto its edge.
enum WebMercator {
    @inline(__always)
    static func x(longitude: Double) -> Double {
        longitude / 360 + 0.5
    }

    @inline(__always)
    static func y(latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    @inline(__always)
    static func longitude(x: Double) -> Double {
        (x - 0.5) * 360
    }

    @inline(__always)
    static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * .pi / 180
        return 360 * atan(exp(y2)) / .pi - 90
    }
}

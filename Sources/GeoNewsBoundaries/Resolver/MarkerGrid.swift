import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Per 1° root cell, which news marker is nearest to every point of the cell: its position in
/// the markers it was built from, or -1 where the cell is near a tie. Spares most positions at
/// sea the search through every marker.
final class MarkerGrid: @unchecked Sendable {
    // Sendable: `cells` is written in init and only read after.
    let cells: UnsafeMutablePointer<Int8>

    static let count = CountryIndexFormat.rootColumns * CountryIndexFormat.rootRows

    /// For each root cell, the marker nearest to its centre when the runner-up is farther by
    /// more than the cell's diameter (so, by the triangle inequality, nearest to every point of
    /// the cell); -1 otherwise. `markers` are unit vectors.
    init(_ markers: [(x: Double, y: Double, z: Double)]) {
        precondition(markers.count < Int(Int8.max))
        cells = .allocate(capacity: Self.count)
        cells.initialize(repeating: -1, count: Self.count)
        let columns = (0..<CountryIndexFormat.rootColumns).map { col in
            let λ = (Double(col - 180) + 0.5) * .pi / 180
            return (cos: cos(λ), sin: sin(λ))
        }
        for row in 0..<CountryIndexFormat.rootRows {
            let lat = Double(row - 90) + 0.5
            // The cell's angular radius: centre to its poleward corner.
            let corner = Double(row - 90) + (lat >= 0 ? 1 : 0)
            let radius = acos(
                min(
                    1,
                    CountryResolver.dot(
                        CountryResolver.unitVector(Coordinate(latitude: lat, longitude: 0.5)),
                        CountryResolver.unitVector(Coordinate(latitude: corner, longitude: 0)))))
            let φ = lat * .pi / 180
            let cosφ = cos(φ), sinφ = sin(φ)
            for col in 0..<CountryIndexFormat.rootColumns {
                // The unit vector of the cell's centre, from the row's and the column's sines.
                let c = (x: cosφ * columns[col].cos, y: cosφ * columns[col].sin, z: sinφ)
                var first = -Double.infinity, second = -Double.infinity, best = 0
                for (k, m) in markers.enumerated() {
                    let d = c.x * m.x + c.y * m.y + c.z * m.z
                    if d > first {
                        second = first
                        first = d
                        best = k
                    } else if d > second {
                        second = d
                    }
                }
                if acos(max(-1, min(1, second))) - acos(max(-1, min(1, first))) > 2 * radius + 1e-9 {
                    cells[row * CountryIndexFormat.rootColumns + col] = Int8(best)
                }
            }
        }
    }

    deinit { cells.deallocate() }

    /// The root cell that holds `p` (longitude 180 with -180), clamped to the grid; `nil` for
    /// a coordinate that is not a number.
    @inline(__always)
    static func cell(of p: Coordinate) -> Int? {
        guard p.latitude.isFinite, p.longitude.isFinite else { return nil }
        let lon = p.longitude >= 180 ? -180 : p.longitude
        // Clamped while still a Double, so the conversion cannot trap.
        let col = Int(min(max(lon.rounded(.down) + 180, 0), Double(CountryIndexFormat.rootColumns - 1)))
        let row = Int(min(max(p.latitude.rounded(.down) + 90, 0), Double(CountryIndexFormat.rootRows - 1)))
        return row * CountryIndexFormat.rootColumns + col
    }
}

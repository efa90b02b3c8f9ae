import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which news marker is nearest to every point of a cell, per 1° root cell and, where a root
/// cell is near a tie between markers, per 1/8° cell inside it: the marker's position in the
/// markers the grid was built from, or -1 where even the finer cell is near a tie. Spares
/// almost every position at sea the search through every marker.
///
/// One allocation, handed out whole (see ``TableBuild``): the root cells' `Int8`s, then at
/// ``finerOffset`` a finer grid of ``finerSide``² `Int8`s for every root cell, at a place its
/// number tells (so a batch can ask for it before reading the root cell), written only for the
/// root cells near a tie: the pages of the rest are never touched.
final class MarkerGrid: @unchecked Sendable {
    // Sendable: `storage` is written in init and only read after.
    let storage: UnsafeMutableRawBufferPointer

    static let count = CountryIndexFormat.rootColumns * CountryIndexFormat.rootRows
    /// Finer cells per side of a root cell: 1/8°, about 14 km.
    static let finerSide = 8
    static let finerOffset = 65536

    /// For each root cell, the marker nearest to its centre when the runner-up is farther by
    /// more than the cell's diameter (so, by the triangle inequality, nearest to every point of
    /// the cell); otherwise -1 and, within it, the same rule for each 1/8° cell among the
    /// markers that can be nearest anywhere in the root cell. `markers` are unit vectors.
    init(_ markers: [(x: Double, y: Double, z: Double)]) {
        precondition(markers.count < Int(Int8.max))
        let columns = (0..<CountryIndexFormat.rootColumns).map { col in
            let λ = (Double(col - 180) + 0.5) * .pi / 180
            return (cos: cos(λ), sin: sin(λ))
        }
        let size = 1 / Double(Self.finerSide)
        let finerRows = (0..<(CountryIndexFormat.rootRows * Self.finerSide)).map { y in
            let lat = -90 + (Double(y) + 0.5) * size
            let φ = lat * .pi / 180, diameter = 2 * Self.radius(latitude: lat, size: size) + 1e-9
            return FinerRow(sin: sin(φ), cos: cos(φ), cosDiameter: cos(diameter), sinDiameter: sin(diameter))
        }
        let finerColumns = (0..<(CountryIndexFormat.rootColumns * Self.finerSide)).map { x in
            let λ = (-180 + (Double(x) + 0.5) * size) * .pi / 180
            return (cos: cos(λ), sin: sin(λ))
        }
        let side = Self.finerSide
        storage = .allocate(byteCount: Self.finerOffset + Self.count * side * side, alignment: 64)
        let roots = UnsafeMutableBufferPointer(rebasing: storage.bindMemory(to: Int8.self)[..<Self.count])
        roots.initialize(repeating: -1)
        for row in 0..<CountryIndexFormat.rootRows {
            let lat = Double(row - 90) + 0.5
            let radius = Self.radius(latitude: lat, size: 1)
            let φ = lat * .pi / 180
            let cosφ = cos(φ), sinφ = sin(φ)
            for col in 0..<CountryIndexFormat.rootColumns {
                // The unit vector of the cell's centre, from the row's and the column's sines.
                let c = (x: cosφ * columns[col].cos, y: cosφ * columns[col].sin, z: sinφ)
                let (best, first, second) = Self.nearestTwo(to: c, markers, among: markers.indices)
                let θ1 = acos(max(-1, min(1, first)))
                if acos(max(-1, min(1, second))) - θ1 > 2 * radius + 1e-9 {
                    roots[row * CountryIndexFormat.rootColumns + col] = Int8(best)
                } else {
                    // A marker nearest to some point q of the cell is within θ1 + r of q (the
                    // centre's nearest is), so within θ1 + 2r of the centre.
                    let reach = cos(min(.pi, θ1 + 2 * radius + 1e-9))
                    let candidates = markers.indices.filter {
                        c.x * markers[$0].x + c.y * markers[$0].y + c.z * markers[$0].z >= reach
                    }
                    let cell = row * CountryIndexFormat.rootColumns + col
                    let at = Self.finerOffset + cell * side * side
                    Self.fillFinerGrid(
                        UnsafeMutableRawBufferPointer(rebasing: storage[at..<(at + side * side)]).bindMemory(to: Int8.self),
                        rows: finerRows[(row * side)..<((row + 1) * side)], columns: finerColumns[(col * side)..<((col + 1) * side)],
                        markers, candidates)
                }
            }
        }
    }

    deinit { storage.deallocate() }

    /// Writes the 1/8° cells of a root cell to `grid`, each the candidate nearest to all of it,
    /// or -1. `rows` and `columns` are the finer cells' sines and cosines of latitude and
    /// longitude, and the cosine and sine of their diameter.
    private static func fillFinerGrid(
        _ grid: UnsafeMutableBufferPointer<Int8>, rows: ArraySlice<FinerRow>, columns: ArraySlice<(cos: Double, sin: Double)>,
        _ markers: [(x: Double, y: Double, z: Double)], _ candidates: [Int]
    ) {
        let side = finerSide
        grid.initialize(repeating: -1)
        for (sy, r) in rows.enumerated() {
            for (sx, λ) in columns.enumerated() {
                let c = (x: r.cos * λ.cos, y: r.cos * λ.sin, z: r.sin)
                let (best, first, second) = Self.nearestTwo(to: c, markers, among: candidates)
                // The runner-up farther by more than the diameter D: its cosine below
                // cos(θ₁ + D) = first · cos D - sin θ₁ · sin D (with θ₁ + D < π).
                guard first > -r.cosDiameter else { continue }
                let limit = first * r.cosDiameter - max(0, 1 - first * first).squareRoot() * r.sinDiameter
                if second < limit { grid[sy * side + sx] = Int8(best) }
            }
        }
    }

    /// Of `markers` at `indices`, the one nearest to the unit vector `c` (the largest dot
    /// product; the first of equals), its dot product and the runner-up's.
    @inline(__always)
    private static func nearestTwo(
        to c: (x: Double, y: Double, z: Double), _ markers: [(x: Double, y: Double, z: Double)], among indices: some Sequence<Int>
    ) -> (best: Int, first: Double, second: Double) {
        var first = -Double.infinity, second = -Double.infinity, best = 0
        for k in indices {
            let m = markers[k]
            let d = c.x * m.x + c.y * m.y + c.z * m.z
            if d > first {
                second = first
                first = d
                best = k
            } else if d > second {
                second = d
            }
        }
        return (best, first, second)
    }

    /// A row of 1/8° cells: the sine and cosine of its centre's latitude, and the cosine and
    /// sine of its cells' diameter (with a margin of 1e-9 radians for rounding).
    struct FinerRow {
        let sin: Double, cos: Double, cosDiameter: Double, sinDiameter: Double
    }

    /// The angular radius of a cell `size` degrees square centred at latitude `lat`: centre to
    /// its poleward corner.
    private static func radius(latitude lat: Double, size: Double) -> Double {
        let corner = lat + (lat >= 0 ? size / 2 : -size / 2)
        return acos(
            min(
                1,
                CountryResolver.dot(
                    CountryResolver.unitVector(Coordinate(latitude: lat, longitude: size / 2)),
                    CountryResolver.unitVector(Coordinate(latitude: corner, longitude: 0)))))
    }

    /// The root cell and the finer cell in it that hold `p` (longitude 180 with -180), clamped
    /// to the grid; `nil` for a coordinate that is not a number.
    @inline(__always)
    static func cells(of p: Coordinate) -> (root: Int, finer: Int)? {
        guard p.latitude.isFinite, p.longitude.isFinite else { return nil }
        let lon = p.longitude >= 180 ? -180 : p.longitude
        // Clamped while still Doubles, so the conversions cannot trap.
        let x = Int(min(max((lon + 180) * 8, 0), Double(CountryIndexFormat.rootColumns * 8 - 1)))
        let y = Int(min(max((p.latitude + 90) * 8, 0), Double(CountryIndexFormat.rootRows * 8 - 1)))
        let root = (y &>> 3) &* CountryIndexFormat.rootColumns &+ (x &>> 3)
        return (root, finerOffset &+ root &<< 6 &+ (y & 7) &<< 3 &+ (x & 7))
    }

    /// The marker the grid at `storage` settles for `p`, or -1 (a tie, or not a number).
    @inline(__always)
    static func marker(at p: Coordinate, in storage: UnsafeRawBufferPointer) -> Int {
        guard let c = cells(of: p) else { return -1 }
        let root = Int(storage.load(fromByteOffset: c.root, as: Int8.self))
        return root >= 0 ? root : Int(storage.load(fromByteOffset: c.finer, as: Int8.self))
    }
}

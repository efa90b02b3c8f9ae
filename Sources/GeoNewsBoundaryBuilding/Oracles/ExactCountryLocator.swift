import GeoNewsBoundaries
import GeoNewsGeodesy

/// The reference answer: GEOS prepared-polygon tests over every country's full boundary.
///
/// Slow (a bounding-box filter, then a prepared `intersects` per candidate) and not
/// thread-safe (it owns one GEOS context); it exists to check ``CountryIndex`` and to settle
/// doubts. Points on a shared border intersect both countries; ``countries(at:)`` returns all
/// of them, ``countryIndex(at:)`` the interior one when there is one.
public final class ExactCountryLocator {
    private let context = GEOSContext()
    private let prepared: [PreparedGeometry]
    private let boxes: [(Double, Double, Double, Double)]

    public init(boundaries: BoundaryFile) throws {
        var prepared: [PreparedGeometry] = []
        var boxes: [(Double, Double, Double, Double)] = []
        for i in 0..<boundaries.count {
            let g = try context.geometry(wkb: try boundaries.wkb(i))
            let e = g.envelope
            boxes.append((e.xmin, e.ymin, e.xmax, e.ymax))
            prepared.append(try g.prepared())
        }
        self.prepared = prepared
        self.boxes = boxes
    }

    /// Catalogue indices of every country whose closed polygons hold the point.
    public func countries(at p: Coordinate) throws -> [Int] {
        let point = try context.point(x: p.longitude, y: p.latitude)
        var result: [Int] = []
        for (i, b) in boxes.enumerated() where p.longitude >= b.0 && p.longitude <= b.2 && p.latitude >= b.1 && p.latitude <= b.3 {
            if prepared[i].intersects(point) { result.append(i) }
        }
        return result
    }

    /// Countries whose boundary (not interior) holds the point: where the answer depends on
    /// an edge convention, and any answer among these, or none, is right.
    public func boundaryCountries(at p: Coordinate) throws -> [Int] {
        let point = try context.point(x: p.longitude, y: p.latitude)
        var result: [Int] = []
        for (i, b) in boxes.enumerated() where p.longitude >= b.0 && p.longitude <= b.2 && p.latitude >= b.1 && p.latitude <= b.3 {
            if prepared[i].intersects(point) && !prepared[i].contains(point) { result.append(i) }
        }
        return result
    }

    /// The country whose interior holds the point; for a point on a border, the first country
    /// whose boundary holds it; `nil` at sea.
    public func countryIndex(at p: Coordinate) throws -> Int? {
        let point = try context.point(x: p.longitude, y: p.latitude)
        var onBoundary: Int?
        for (i, b) in boxes.enumerated() where p.longitude >= b.0 && p.longitude <= b.2 && p.latitude >= b.1 && p.latitude <= b.3 {
            if prepared[i].contains(point) { return i }
            if onBoundary == nil, prepared[i].intersects(point) { onBoundary = i }
        }
        return onBoundary
    }
}

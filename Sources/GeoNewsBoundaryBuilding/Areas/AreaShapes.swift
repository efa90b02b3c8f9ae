import GeoNewsBoundaries
import GeoNewsTimeZones

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One zone's polygons as GEOS geometry, with its boxes and area (square degrees).
struct ZoneShape {
    let zone: Int
    let whole: Geometry
    let box: Box
    let partBoxes: [Box]
    let area: Double

    init(zone: Int, geometry: TimeZoneBoundaryFile, context: GEOSContext) throws {
        var parts: [Geometry] = []
        for p in geometry.polygons(ofZone: zone) {
            let rings = geometry.rings(ofPolygon: p).map { geometry.vertices(ofRing: $0) }
            var g = try context.polygon(rings: rings, scale: TimeZoneBoundaryFile.degreesPerUnit)
            if !g.isValid { g = try g.madeValid() }
            parts.append(g)
        }
        // A zone's own polygons do not overlap: a MultiPolygon of them is valid as it is.
        whole = parts.allSatisfy(\.isPolygon) ? try context.multiPolygon(parts) : try context.union(parts)
        self.zone = zone
        box = Box(whole.envelope)
        partBoxes = parts.map { Box($0.envelope) }
        area = whole.area
    }
}

/// Size and shape of a polygonal geometry, from degrees at the latitude of its centre (km per
/// degree of latitude 111.32; of longitude 111.32·cos φ).
public struct Shape: Sendable {
    public let areaKm2: Double
    public let perimeterKm: Double

    init(_ g: Geometry) {
        let e = g.envelope
        let c = cos((e.ymin + e.ymax) / 2 * .pi / 180)
        areaKm2 = g.area * 111.32 * 111.32 * c
        // A perimeter's direction is unknown: scale it by the mean of the two axes' factors.
        perimeterKm = g.length * 111.32 * (1 + c) / 2
    }

    /// 2·area/perimeter (km): a strip's width, a disc's radius.
    public var meanWidthKm: Double { perimeterKm > 0 ? 2 * areaKm2 / perimeterKm : 0 }
}

/// A bounding box in degrees.
struct Box {
    let xmin: Double, ymin: Double, xmax: Double, ymax: Double

    init(_ e: (xmin: Double, ymin: Double, xmax: Double, ymax: Double)) {
        (xmin, ymin, xmax, ymax) = e
    }

    func overlaps(_ o: Box) -> Bool { xmin <= o.xmax && o.xmin <= xmax && ymin <= o.ymax && o.ymin <= ymax }

    /// The planar distance between the boxes (0 when they overlap), a lower bound of the
    /// distance between anything inside them.
    func gap(to o: Box) -> Double {
        let dx = max(0, max(o.xmin - xmax, xmin - o.xmax)), dy = max(0, max(o.ymin - ymax, ymin - o.ymax))
        return (dx * dx + dy * dy).squareRoot()
    }
}

import GeoNewsBoundaries
import GeoNewsGeodesy
import GeoNewsTimeZones

/// The reference answer over the country areas: GEOS prepared-polygon tests over every region
/// of a ``CountryAreaFile``, each a (country, zone) pair.
///
/// Slow and not thread-safe (it owns one GEOS context), as ``ExactCountryLocator``: it exists to
/// check the index built from the same regions and to settle doubts.
public final class ExactAreaLocator {
    /// What holds a position: a country (catalogue index, `nil` for the open ocean) and a zone
    /// (index in ``/GeoNewsTimeZones/TimeZoneCatalogue/zones``).
    public struct Answer: Sendable, Equatable {
        public let country: Int?
        public let zone: Int
    }

    private let context = GEOSContext()
    private let prepared: [PreparedGeometry]
    private let boxes: [Box]
    private let answers: [Answer]

    public init(areas: CountryAreaFile) throws {
        var prepared: [PreparedGeometry] = []
        var boxes: [Box] = []
        var answers: [Answer] = []
        for i in 0..<areas.count {
            let g = try context.geometry(wkb: try areas.wkb(i))
            boxes.append(Box(g.envelope))
            prepared.append(try g.prepared())
            answers.append(Answer(country: try areas.country(i), zone: try areas.zone(i)))
        }
        self.prepared = prepared
        self.boxes = boxes
        self.answers = answers
    }

    /// Every region whose closed polygons hold the position: one inside a region, two or more
    /// on a border between regions, none outside all of them (a file of some zones only).
    public func answers(at p: Coordinate) throws -> [Answer] {
        let point = try context.point(x: p.longitude, y: p.latitude)
        return boxes.indices.filter { i in
            let b = boxes[i]
            return p.longitude >= b.xmin && p.longitude <= b.xmax && p.latitude >= b.ymin && p.latitude <= b.ymax
                && prepared[i].intersects(point)
        }.map { answers[$0] }
    }
}

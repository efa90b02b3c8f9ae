#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One piece of a country's area: the part of a time zone that belongs to one country (or to
/// none: the open ocean). Index regions are these pieces, so one lookup answers both.
struct CountryZoneRegion {
    /// Catalogue index of the country, `nil` beyond every territorial sea.
    let country: Int?
    /// Index of the zone in ``TimeZoneCatalogue/zones``.
    let zone: Int
    let geometry: Geometry
}

/// Splits the zones of timezone-boundary-builder into country areas with Natural Earth's
/// identity, with GEOS, at build time.
///
/// A zone belongs to the country `zone.tab` gives it (the `Etc/` zones to none). Where a zone
/// also covers land that Natural Earth gives another country (Asia/Bangkok over northern
/// Vietnam, Europe/Belgrade over Kosovo), that land goes to that country; the border between
/// them inside the zone is Natural Earth's. What decides it is the overlap alone:
///
/// 1. Each other country's Natural Earth land inside the zone is a *share* when it is both
///    large (``minimumAreaKm2``) and wide (mean width 2·area/perimeter at least
///    ``minimumMeanWidthKm``). Smaller or thinner overlaps are slivers where Natural Earth's
///    generalised border departs from OpenStreetMap's, and stay with the zone's country.
/// 2. The rest of the zone falls into connected parts. A part holding (almost) none of the
///    zone country's own land (``strayLandKm2``) — the territorial sea off a share's coast, a
///    sliver beside a share — goes to the share it borders over the longest line.
/// 3. A zone whose `zone.tab` country Natural Earth does not draw (Christmas Island, Cocos,
///    Tokelau) belongs to the country with the most Natural Earth land in it.
///
/// Areas and lengths are converted from degrees at the latitude of each piece's centre: good to
/// a few per cent, which is all the thresholds need.
public struct CountryAreaSplitter {
    /// Least area of another country's land in a zone for it to be that country's (km²).
    public var minimumAreaKm2 = 10.0
    /// Least mean width (2·area/perimeter) of that land (km); slivers are thinner.
    public var minimumMeanWidthKm = 2.0
    /// A leftover part with less of the zone country's land than this goes to a neighbour (km²).
    public var strayLandKm2 = 1.0

    public init() {}

    /// What the splitter decided for one piece of a zone, for the build report.
    public struct Decision: Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// Another country's land, large and wide enough: it becomes that country's.
            case share
            /// Another country's land too small or thin: it stays with the zone's country.
            case sliver
            /// A leftover part (sea off a share, a sliver beside it) that joins a share.
            case adopted
            /// The zone's own country came from overlap, `zone.tab`'s is not in Natural Earth.
            case countryByOverlap = "country-by-overlap"
        }
        public let zone: String
        public let zoneCountry: String?
        public let country: String?
        public let kind: Kind
        public let areaKm2: Double
        public let meanWidthKm: Double

        public var description: String {
            let area = (areaKm2 * 10).rounded() / 10, width = (meanWidthKm * 100).rounded() / 100
            return "\(zone) [\(zoneCountry ?? "ocean")] \(kind.rawValue) \(country ?? "-"): \(area) km², mean width \(width) km"
        }
    }

    /// Splits every zone of `data` (`timezones.json`, `countries.json`, `boundaries.bin`, and
    /// the decoded geometry in `geometryFolder`) and returns how many regions that makes and
    /// every decision, for the build report. `progress` is called with each zone's index.
    public func decide(data: DataDirectory, geometryFolder: String,
                       progress: (Int) -> Void = { _ in }) throws -> (regions: Int, decisions: [Decision]) {
        let zones = try TimeZoneCatalogue.load(from: data)
        let result = try regions(zones: zones, geometry: try zones.boundaries(in: geometryFolder),
                                 countries: try BoundaryFile(directory: data),
                                 catalogue: try Catalogue.loadJSON(from: data), context: GEOSContext(),
                                 progress: progress)
        return (result.regions.count, result.decisions)
    }

    /// Splits every zone. `countries` are Natural Earth's polygons in catalogue order.
    func regions(zones: TimeZoneCatalogue, geometry: TimeZoneBoundaryFile, countries: BoundaryFile,
                 catalogue: Catalogue, context: GEOSContext,
                 progress: (Int) -> Void = { _ in }) throws -> (regions: [CountryZoneRegion], decisions: [Decision]) {
        var land: [Geometry] = []
        var boxes: [Box] = []
        for i in 0..<countries.count {
            var g = try context.geometry(wkb: try countries.wkb(i))
            if !g.isValid { g = try g.madeValid() }
            land.append(g)
            boxes.append(Box(g.envelope))
        }
        let ids = catalogue.countries.map(\.id)
        var regions: [CountryZoneRegion] = []
        var decisions: [Decision] = []
        for (z, zone) in zones.zones.enumerated() {
            progress(z)
            var parts: [Geometry] = []
            var partBoxes: [Box] = []
            for p in geometry.polygons(ofZone: z) {
                let rings = geometry.rings(ofPolygon: p).map { geometry.vertices(ofRing: $0) }
                var g = try context.polygon(rings: rings, scale: TimeZoneBoundaryFile.degreesPerUnit)
                if !g.isValid { g = try g.madeValid() }
                parts.append(g)
                partBoxes.append(Box(g.envelope))
            }
            // The zone's polygons do not overlap: a MultiPolygon of them is valid as it is.
            let whole = parts.allSatisfy(\.isPolygon)
                ? try context.multiPolygon(parts)
                : try context.union(parts)
            // Natural Earth land of each country inside this zone.
            var pieces: [(country: Int, geometry: Geometry, area: Double, width: Double)] = []
            let prepared = try whole.prepared()
            for (k, box) in boxes.enumerated() where partBoxes.contains(where: { $0.overlaps(box) }) {
                guard prepared.intersects(land[k]) else { continue }
                let clipped = try whole.clipped(xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax)
                let piece = try clipped.intersection(land[k])
                guard !piece.isEmpty, piece.area > 0 else { continue }
                let (area, width) = Self.measure(piece)
                pieces.append((k, piece, area, width))
            }
            var own = zone.country.flatMap { catalogue.country(iso2: $0) }.flatMap { catalogue.index(of: $0) }
            if own == nil, !zone.isOcean, let largest = pieces.max(by: { $0.area < $1.area }) {
                own = largest.country
                decisions.append(Decision(zone: zone.id, zoneCountry: zone.country, country: ids[largest.country],
                                          kind: .countryByOverlap, areaKm2: largest.area, meanWidthKm: largest.width))
            }
            var shares: [(country: Int, geometry: Geometry)] = []
            for piece in pieces where piece.country != own {
                let isShare = piece.area >= minimumAreaKm2 && piece.width >= minimumMeanWidthKm
                decisions.append(Decision(zone: zone.id, zoneCountry: zone.country, country: ids[piece.country],
                                          kind: isShare ? .share : .sliver, areaKm2: piece.area, meanWidthKm: piece.width))
                if isShare { shares.append((piece.country, piece.geometry)) }
            }
            guard !shares.isEmpty else {
                regions.append(CountryZoneRegion(country: own, zone: z, geometry: whole))
                continue
            }
            let rest = try whole.difference(try context.union(shares.map(\.geometry)))
            var kept: [Geometry] = []
            var adopted: [Int: [Geometry]] = [:]
            for i in 0..<rest.partCount {
                let part = try rest.part(i)
                guard part.area > 0 else { continue }
                if let own, !zone.isOcean, try ownLand(of: part, in: land[own], box: boxes[own]) < strayLandKm2 {
                    let boundary = try part.boundary()
                    let borders = try shares.map { try boundary.intersection($0.geometry).length }
                    if let best = borders.indices.max(by: { borders[$0] < borders[$1] }), borders[best] > 0 {
                        let k = shares[best].country
                        adopted[k, default: []].append(part)
                        let (area, width) = Self.measure(part)
                        decisions.append(Decision(zone: zone.id, zoneCountry: zone.country, country: ids[k],
                                                  kind: .adopted, areaKm2: area, meanWidthKm: width))
                        continue
                    }
                }
                kept.append(part)
            }
            if !kept.isEmpty {
                regions.append(CountryZoneRegion(country: own, zone: z, geometry: try context.union(kept)))
            }
            for share in shares {
                let all = [share.geometry] + (adopted[share.country] ?? [])
                regions.append(CountryZoneRegion(country: share.country, zone: z,
                                                 geometry: try context.union(all)))
            }
        }
        return (regions, decisions)
    }

    /// Area (km²) of `country`'s land inside `part`.
    private func ownLand(of part: Geometry, in country: Geometry, box: Box) throws -> Double {
        let e = part.envelope
        guard Box(e).overlaps(box) else { return 0 }
        let clipped = try country.clipped(xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax)
        guard !clipped.isEmpty else { return 0 }
        return Self.measure(try clipped.intersection(part)).area
    }

    /// Area (km²) and mean width 2·area/perimeter (km) of a polygonal geometry, from degrees
    /// at the latitude of its centre (km per degree of latitude 111.32; of longitude 111.32·cos φ).
    static func measure(_ g: Geometry) -> (area: Double, width: Double) {
        let e = g.envelope
        let c = cos((e.ymin + e.ymax) / 2 * .pi / 180)
        let area = g.area * 111.32 * 111.32 * c
        // A perimeter's direction is unknown: scale it by the mean of the two axes' factors.
        let perimeter = g.length * 111.32 * (1 + c) / 2
        return (area, perimeter > 0 ? 2 * area / perimeter : 0)
    }
}

/// A bounding box in degrees.
struct Box {
    let xmin: Double, ymin: Double, xmax: Double, ymax: Double

    init(_ e: (xmin: Double, ymin: Double, xmax: Double, ymax: Double)) {
        (xmin, ymin, xmax, ymax) = e
    }

    func overlaps(_ o: Box) -> Bool { xmin <= o.xmax && o.xmin <= xmax && ymin <= o.ymax && o.ymin <= ymax }
}

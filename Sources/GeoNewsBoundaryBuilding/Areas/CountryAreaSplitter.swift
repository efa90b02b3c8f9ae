import GeoNewsBoundaries
import GeoNewsData
import GeoNewsTimeZones

/// One piece of a country's area: the part of a time zone that belongs to one country (or to
/// none: the open ocean). Index regions are these pieces, so one lookup answers both.
struct CountryZoneRegion {
    /// Catalogue index of the country, `nil` beyond every territorial sea.
    let country: Int?
    /// Index of the zone in ``/GeoNewsTimeZones/TimeZoneCatalogue/zones``.
    let zone: Int
    let geometry: Geometry
    /// Drawn around land that Natural Earth lacks: the country holds throughout it.
    var unmappedLand = false
}

/// Splits the zones of timezone-boundary-builder into country areas with Natural Earth's
/// identity, with GEOS, at build time.
///
/// A zone belongs to the country `zone.tab` gives it (the `Etc/` zones to none). Where a zone
/// also covers land that Natural Earth gives another country (Asia/Bangkok over northern
/// Vietnam, Europe/Belgrade over Kosovo), that land goes to that country; the border between
/// them inside the zone is Natural Earth's. What decides it is the overlap alone:
///
/// 1. Each connected piece of another country's Natural Earth land inside the zone is a
///    *share* of that country when it is at least ``minimumAreaKm2`` and less than
///    ``maximumNearFraction`` of it lies within ``borderMarginKm`` of that country's land
///    outside the zone. Other pieces are where Natural Earth's generalised border departs
///    from OpenStreetMap's (strips along a border, blobs at a river's bend: the country's
///    land goes on just across the zone's edge), and stay with the zone's country. The
///    nearness, not the size, tells them apart: Natural Earth's Monaco is nine times the real
///    one, and most of it lies in Europe/Paris, but all of that within a short way of the
///    Monaco that Europe/Monaco holds.
/// 2. The rest of the zone falls into connected parts. A part holding (almost) none of the
///    zone country's own land (``strayLandKm2``) — the territorial sea off a share's coast, a
///    sliver beside a share — goes to the share it borders over the longest line.
/// 3. A zone whose `zone.tab` country Natural Earth does not draw (Christmas Island, Cocos,
///    Tokelau) belongs to the country with the most Natural Earth land in it.
/// 4. Where zones overlap (Asia/Urumqi over Asia/Shanghai in Xinjiang), the smaller zone
///    keeps the overlap, so that regions never overlap.
/// 5. A connected part of a zone (not the open ocean) that holds no Natural Earth land at all
///    is drawn around land Natural Earth lacks (Bạch Long Vĩ, an island of Hai Phong in
///    Asia/Bangkok): it goes to the country whose land in the zone lies nearest, never to
///    the zone's own for being the zone's, and is marked so that its country holds
///    throughout it (``CountryResolver/territorialSeaKm`` cuts the others' seas).
///
/// Areas and lengths are converted from degrees at the latitude of each piece's centre, and the
/// margin at 111.32 km a degree: good to a few per cent, which is all the thresholds need.
public struct CountryAreaSplitter {
    /// Least area of a piece of another country's land for it to be that country's (km²).
    public var minimumAreaKm2 = 10.0
    /// How far Natural Earth's 1:10m borders stray from OpenStreetMap's (km).
    public var borderMarginKm = 3.0
    /// A piece with at least this fraction of its area within the margin of its country's land
    /// outside the zone is a generalisation artefact, not a share.
    public var maximumNearFraction = 0.5
    /// A leftover part with less of the zone country's land than this goes to a neighbour (km²).
    public var strayLandKm2 = 1.0

    public init() {}

    /// Splits every zone of `data` (`timezones.json`, `countries.json`, `boundaries.bin`, and
    /// the decoded geometry in `geometryFolder`), or only the zones named in `zoneIDs`.
    /// Returns the contents of ``CountryAreaFile`` (each region snapped to its grid) and every
    /// decision, for the build report. `progress` is called with each zone's index.
    public func build(
        data: DataDirectory, geometryFolder: String, only zoneIDs: Set<String>? = nil,
        progress: (Int) -> Void = { _ in }
    ) throws -> (areaFile: [UInt8], regions: Int, decisions: [Decision]) {
        let zones = try TimeZoneCatalogue.load(from: data)
        let result = try regions(
            zones: zones, geometry: try zones.boundaries(in: geometryFolder),
            countries: try BoundaryFile(directory: data),
            catalogue: try Catalogue.loadJSON(from: data), context: GEOSContext(),
            only: zoneIDs.map { ids in Set(zones.zones.indices.filter { ids.contains(zones.zones[$0].id) }) },
            progress: progress)
        var encoded: [(country: Int?, zone: Int, unmappedLand: Bool, wkb: [UInt8])] = []
        for region in result.regions {
            let snapped = try region.geometry.snapped(toGrid: CountryAreaFile.gridDegrees)
            guard !snapped.isEmpty else { continue }
            encoded.append((region.country, region.zone, region.unmappedLand, snapped.wkb()))
        }
        return (CountryAreaFile.encode(encoded), encoded.count, result.decisions)
    }

    /// Splits every zone (or those in `only`). `countries` are Natural Earth's polygons in
    /// catalogue order.
    func regions(
        zones: TimeZoneCatalogue, geometry: TimeZoneBoundaryFile, countries: BoundaryFile,
        catalogue: Catalogue, context: GEOSContext, only: Set<Int>? = nil,
        progress: (Int) -> Void = { _ in }
    ) throws -> (regions: [CountryZoneRegion], decisions: [Decision]) {
        var land: [(geometry: Geometry, box: Box)] = []
        for i in 0..<countries.count {
            var g = try context.geometry(wkb: try countries.wkb(i))
            if !g.isValid { g = try g.madeValid() }
            land.append((g, Box(g.envelope)))
        }
        // Every zone that may overlap a zone to split, as GEOS geometry.
        let extents = zones.zones.indices.map { Box(geometry.extent(ofZone: $0)) }
        let selected = only.map { $0.sorted() } ?? Array(zones.zones.indices)
        var shapes: [ZoneShape?] = []
        for z in zones.zones.indices {
            let needed = only == nil || selected.contains { extents[$0].overlaps(extents[z]) }
            shapes.append(needed ? try ZoneShape(zone: z, geometry: geometry, context: context) : nil)
        }
        let loaded = shapes.compactMap { $0 }
        let ids = catalogue.countries.map(\.id)
        var regions: [CountryZoneRegion] = []
        var decisions: [Decision] = []
        for z in selected {
            let zone = zones.zones[z]
            progress(z)
            guard let shape = shapes[z] else { continue }
            var whole = shape.whole
            // Zones may overlap (Asia/Urumqi lies over Asia/Shanghai in Xinjiang): the smaller,
            // more particular zone keeps the overlap.
            let prepared = try whole.prepared()
            let inside = loaded.filter {
                $0.area < shape.area && $0.box.overlaps(shape.box)
                    && (prepared.overlaps($0.whole) || prepared.contains($0.whole))
            }
            if !inside.isEmpty {
                whole = try whole.difference(try context.union(inside.map(\.whole)))
                for other in inside {
                    // Most are slivers where neighbours' shared borders differ in the last digits.
                    let overlap = Shape(try shape.whole.intersection(other.whole))
                    guard overlap.areaKm2 >= minimumAreaKm2 else { continue }
                    decisions.append(
                        Decision(
                            zone: zone.id, zoneCountry: zone.country, country: zones.zones[other.zone].id,
                            kind: .yields, shape: overlap))
                }
            }
            // Natural Earth land of each country inside this zone, one connected part at a time.
            var pieces: [(country: Int, geometry: Geometry, shape: Shape)] = []
            let holder = try whole.prepared()
            for (k, c) in land.enumerated() where shape.partBoxes.contains(where: { $0.overlaps(c.box) }) {
                guard holder.intersects(c.geometry) else { continue }
                let clipped = try whole.clipped(xmin: c.box.xmin, ymin: c.box.ymin, xmax: c.box.xmax, ymax: c.box.ymax)
                let overlap = try clipped.intersection(c.geometry)
                for i in 0..<overlap.partCount {
                    let piece = try overlap.part(i)
                    guard piece.isPolygon, piece.area > 0 else { continue }
                    pieces.append((k, piece, Shape(piece)))
                }
            }
            var own = zone.country.flatMap { catalogue.country(iso2: $0) }.flatMap { catalogue.index(of: $0) }
            if own == nil, !zone.isOcean, let largest = pieces.max(by: { $0.shape.areaKm2 < $1.shape.areaKm2 }) {
                own = largest.country
                decisions.append(
                    Decision(
                        zone: zone.id, zoneCountry: zone.country, country: ids[largest.country],
                        kind: .countryByOverlap, shape: largest.shape))
            }
            var shares: [(country: Int, geometry: Geometry)] = []
            for piece in pieces where piece.country != own {
                var decision = Decision(
                    zone: zone.id, zoneCountry: zone.country, country: ids[piece.country],
                    kind: .sliver, shape: piece.shape)
                if piece.shape.areaKm2 >= minimumAreaKm2 {
                    // Beyond the zone as drawn, overlaps included: Asia/Jerusalem spans the whole West
                    // Bank, Asia/Hebron's islands within it are not beyond it.
                    decision.nearFraction = try nearFraction(
                        piece.geometry, of: land[piece.country].geometry,
                        outside: shape.whole)
                    if decision.nearFraction < maximumNearFraction {
                        decision.kind = .share
                        shares.append((piece.country, piece.geometry))
                    }
                }
                decisions.append(decision)
            }
            if !zone.isOcean {
                let lands = pieces.filter { $0.country == own }.map { ($0.country, $0.geometry) } + shares
                let unmapped = try unmappedLandParts(of: whole, pieces: pieces.map(\.geometry), lands: lands, own: own)
                if !unmapped.parts.isEmpty {
                    whole = try context.union(unmapped.kept)
                    var byCountry: [Int: [Geometry]] = [:]
                    for (k, part) in unmapped.parts {
                        byCountry[k, default: []].append(part)
                        decisions.append(
                            Decision(
                                zone: zone.id, zoneCountry: zone.country, country: ids[k],
                                kind: .unmappedLand, shape: Shape(part)))
                    }
                    for k in byCountry.keys.sorted() {
                        regions.append(
                            CountryZoneRegion(
                                country: k, zone: z, geometry: try context.union(byCountry[k]!),
                                unmappedLand: true))
                    }
                }
            }
            guard !shares.isEmpty else {
                regions.append(CountryZoneRegion(country: own, zone: z, geometry: whole))
                continue
            }
            // What is left of the zone, part by part: a part with (almost) none of the zone
            // country's land joins the share it borders most.
            let rest = try whole.difference(try context.union(shares.map(\.geometry)))
            var kept: [Geometry] = []
            var adopted: [Int: [Geometry]] = [:]
            for i in 0..<rest.partCount {
                let part = try rest.part(i)
                guard part.area > 0 else { continue }
                if let own, !zone.isOcean, try ownLand(of: part, in: land[own]) < strayLandKm2 {
                    let boundary = try part.boundary()
                    let borders = try shares.map { try boundary.intersection($0.geometry).length }
                    if let best = borders.indices.max(by: { borders[$0] < borders[$1] }), borders[best] > 0 {
                        let k = shares[best].country
                        adopted[k, default: []].append(part)
                        decisions.append(
                            Decision(
                                zone: zone.id, zoneCountry: zone.country, country: ids[k],
                                kind: .adopted, shape: Shape(part)))
                        continue
                    }
                }
                kept.append(part)
            }
            if !kept.isEmpty {
                regions.append(CountryZoneRegion(country: own, zone: z, geometry: try context.union(kept)))
            }
            // One region per country: a country's shares and the parts they adopted, together
            // (a region per share, each with all the adopted parts, would overlap).
            var shareCountries: [Int] = []
            for share in shares where !shareCountries.contains(share.country) { shareCountries.append(share.country) }
            for k in shareCountries {
                let all = shares.filter { $0.country == k }.map(\.geometry) + (adopted[k] ?? [])
                regions.append(CountryZoneRegion(country: k, zone: z, geometry: try context.union(all)))
            }
        }
        return (regions, decisions)
    }

    /// Fraction of `piece` (a country's land in `zone`) within the margin of that country's
    /// `land` outside the zone: a strip or blob of border generalisation lies against it.
    private func nearFraction(_ piece: Geometry, of land: Geometry, outside zone: Geometry) throws -> Double {
        let d = borderMarginKm / 111.32
        let e = piece.envelope
        let (x0, y0, x1, y1) = (e.xmin - d, e.ymin - d, e.xmax + d, e.ymax + d)
        let nearby = try land.clipped(xmin: x0, ymin: y0, xmax: x1, ymax: y1)
        guard !nearby.isEmpty else { return 0 }
        let beyond = try nearby.difference(try zone.clipped(xmin: x0, ymin: y0, xmax: x1, ymax: y1))
        guard !beyond.isEmpty, beyond.area > 0 else { return 0 }
        return try piece.intersection(try beyond.buffered(by: d)).area / piece.area
    }

    /// The connected parts of `whole` that hold none of `pieces` (Natural Earth's land in the
    /// zone, of any country), each with the country of the nearest of `lands` (the zone country's land in the zone and the shares: the
    /// countries OpenStreetMap draws there, not whichever land is nearest, which would give
    /// Greek islets to Turkey), or `own` when there are none; and the parts that hold land.
    private func unmappedLandParts(
        of whole: Geometry, pieces: [Geometry], lands: [(country: Int, geometry: Geometry)],
        own: Int?
    ) throws -> (parts: [(country: Int, geometry: Geometry)], kept: [Geometry]) {
        var parts: [(country: Int, geometry: Geometry)] = []
        var kept: [Geometry] = []
        let boxes = lands.map { Box($0.geometry.envelope) }
        for i in 0..<whole.partCount {
            let part = try whole.part(i)
            let box = Box(part.envelope)
            let prepared = try part.prepared()
            let holdsLand = pieces.contains { box.overlaps(Box($0.envelope)) && prepared.intersects($0) }
            guard !holdsLand, part.area > 0 else {
                kept.append(part)
                continue
            }
            // Nearest first by box, so that the exact distance (costly to a mainland) is
            // measured only while a box could still be nearer.
            var nearest = own, best = Double.infinity
            let byBox = lands.indices.map { (gap: box.gap(to: boxes[$0]), land: $0) }.sorted { $0.gap < $1.gap }
            for (gap, k) in byBox where gap < best {
                let d = try part.distance(to: lands[k].geometry)
                if d < best { (best, nearest) = (d, lands[k].country) }
            }
            if let nearest { parts.append((nearest, part)) } else { kept.append(part) }
        }
        return (parts, kept)
    }

    /// Area (km²) of a country's `land` inside `part`.
    private func ownLand(of part: Geometry, in land: (geometry: Geometry, box: Box)) throws -> Double {
        let e = part.envelope
        guard Box(e).overlaps(land.box) else { return 0 }
        let clipped = try land.geometry.clipped(xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax)
        guard !clipped.isEmpty else { return 0 }
        return Shape(try clipped.intersection(part)).areaKm2
    }
}

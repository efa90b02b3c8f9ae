import GeoNewsData
import GeoNewsGeodesy
import GeoNewsTimeZones

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Position → containing country, time zone, distance to the country's edge, nearest country at
/// sea, and the suggested news country.
///
/// The containing country is the one whose land or territorial sea holds the position, as
/// OpenStreetMap draws them (the regions of ``AreaIndex``: timezone-boundary-builder's zones
/// split by country), with the sea cut at 12 nautical miles from OpenStreetMap's coast (see
/// ``territorialSeaKm``); beyond every territorial sea there is none, and the nearest land is
/// OpenStreetMap's (the land index, read as a ``CountryIndex``). The suggestion's rules, in order:
/// 1. Inside one of the 54 news countries: that country, reason ``SuggestionReason/inside``,
///    distance 0.
/// 2. Inside a territory whose sovereign is a news country (Réunion → France): the sovereign,
///    reason ``SuggestionReason/sovereign``, distance 0.
/// 3. Beyond the territorial seas within ``nearShoreKm`` of the land of a country that rules
///    1–2 would answer: that news country, reason ``SuggestionReason/offshore``, with the
///    distance to the land.
/// 4. Anywhere else (a country without news coverage, the open sea): the news country whose
///    marker is nearest on the great circle, reason ``SuggestionReason/nearestMarker``, with
///    that distance.
///
/// Immutable and lock-free: one resolver serves any number of threads. Only the memory-mapped
/// indexes are touched per query; GEOS is not on this path.
public final class CountryResolver: IndexedCountryResolving, Sendable {
    public let catalogue: Catalogue
    /// OpenStreetMap's land (the land index, ``LandIndexFormat``): what is land, and the coast
    /// the territorial sea and the nearest country at sea are measured from.
    public let index: CountryIndex
    /// The (country, zone) regions: the containing country and the time zone.
    public let areas: AreaIndex
    /// The IANA ids of ``/GeoNewsTimeZones/TimeZoneCatalogue/zones``, in its order.
    public let zoneIDs: [String]
    /// How it was built: what ``resolve(_:)`` measures, and the tables precomputed.
    public let options: ResolverOptions
    /// Lets the border-distance search skip the cells a country wholly holds, once built (when
    /// ``ResolverOptions/buildsBorderTable`` asks, on a thread of its own from the first
    /// border distance measured). `nil` until then; the search gives the same distances
    /// without it.
    public var borderTable: AreaBorderTable? { borderTableBuild?.builtTable }
    /// The border table's build, when ``ResolverOptions/buildsBorderTable`` asked for one.
    public let borderTableBuild: TableBuild<AreaBorderTable>?
    /// Spares most positions at sea near a coast the nearest-land search once built (when
    /// ``ResolverOptions/buildsCoastGrid`` asks, from the first position at sea).
    public let coastGrid: CoastGridBuild?
    /// Within this many kilometres of a news country's land, a point at sea is suggested that
    /// country (25 km: the territorial sea is 22 km, and a little more covers coastal towns
    /// given a few kilometres out).
    public let nearShoreKm: Double

    /// The news markers as unit vectors: the nearest marker on the sphere is the one with the
    /// largest dot product, so the search needs no trigonometry per marker.
    private let newsMarkers: [(index: Int, x: Double, y: Double, z: Double)]
    /// Per catalogue index: the marker and the cosine of its latitude, so that the distance to
    /// the nearest marker (three rows in four of a batch at sea) computes it once.
    private let markerPoints: [(marker: Coordinate, cosineOfLatitude: Double)]
    /// Per catalogue index: the news country that answers for it (itself, or its sovereign), if any.
    private let newsCountry: [Int?]
    /// Antarctica's catalogue index: its regions hold throughout (see ``holder(of:in:)``).
    let antarctica: Int?

    /// Per 1° cell, and 1/8° cell near a tie, the position in `newsMarkers` of the marker
    /// nearest to every point of the cell; built on a thread of its own from the first marker
    /// search, when ``ResolverOptions/precomputesMarkerGrid`` asks.
    let markerGrid: TableBuild<MarkerGrid>?

    /// - Parameter options: what ``resolve(_:)`` measures and which tables to precompute; see
    ///   ``ResolverOptions/singlePosition``, ``ResolverOptions/batch`` and
    ///   ``ResolverOptions/server``.
    public init(
        catalogue: Catalogue, index: CountryIndex, areas: AreaIndex, zoneIDs: [String],
        options: ResolverOptions = .singlePosition
    ) {
        precondition(areas.countryCount == catalogue.countries.count)
        self.catalogue = catalogue
        self.index = index
        self.areas = areas
        self.zoneIDs = zoneIDs
        self.options = options
        borderTableBuild =
            options.buildsBorderTable ? TableBuild({ AreaBorderTable(areas) }, storage: { $0.storage }) : nil
        coastGrid = options.buildsCoastGrid ? CoastGridBuild(index) : nil
        nearShoreKm = index.nearShoreKm
        antarctica = catalogue.country(iso2: "AQ").flatMap { catalogue.index(of: $0) }
        newsCountry = catalogue.countries.map { c in
            if c.hasNews { return catalogue.index(of: c) }
            guard let s = c.sovereignIso2, let sovereign = catalogue.country(iso2: s), sovereign.hasNews else { return nil }
            return catalogue.index(of: sovereign)
        }
        newsMarkers = catalogue.countries.enumerated().compactMap { i, c -> (index: Int, x: Double, y: Double, z: Double)? in
            guard c.hasNews else { return nil }
            let v = Self.unitVector(c.marker)
            return (i, v.x, v.y, v.z)
        }
        markerPoints = catalogue.countries.map { c in (c.marker, cos(c.marker.latitude * .pi / 180)) }
        let markers = newsMarkers.map { (x: $0.x, y: $0.y, z: $0.z) }
        markerGrid =
            options.precomputesMarkerGrid ? TableBuild({ MarkerGrid(markers) }, storage: { UnsafeRawBufferPointer($0.storage) }) : nil
    }

    static func dot(_ a: (x: Double, y: Double, z: Double), _ b: (x: Double, y: Double, z: Double)) -> Double {
        a.x * b.x + a.y * b.y + a.z * b.z
    }

    static func unitVector(_ c: Coordinate) -> (x: Double, y: Double, z: Double) {
        let φ = c.latitude * .pi / 180, λ = c.longitude * .pi / 180
        return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    }

    /// Loads the catalogue, the zones and both prebuilt indexes from the build folder beside
    /// the data directory or the cache (see ``/GeoNewsData/DataDirectory/areaIndexFolder``):
    /// `area-index.bin` (and `country-areas.bin` for exact answers on an edge, when present),
    /// then `land-index.bin`, OpenStreetMap's land.
    ///
    /// - Parameters:
    ///   - indexFolder: the folder that holds the two indexes, instead of the one the data
    ///     directory names (as ``/GeoNewsData/DataDirectory/installAreaIndex(into:)`` was given).
    ///   - options: see ``init(catalogue:index:areas:zoneIDs:options:)``.
    public static func load(
        from directory: DataDirectory, indexFolder: String? = nil, options: ResolverOptions = .singlePosition
    ) throws(DataError) -> CountryResolver {
        let catalogue = try Catalogue.load(from: directory)
        let ids = catalogue.countries.map(\.id)
        let zones = try TimeZoneRules.zoneIDs(in: directory)
        let build = indexFolder ?? directory.areaIndexFolder
        let areaFile = try? CountryAreaFile(path: build + "/" + CountryAreaFile.fileName)
        let areas = try AreaIndex(path: build + "/" + AreaIndexFormat.fileName, catalogueIDs: ids, zoneIDs: zones, areas: areaFile)
        // The land the territorial sea is measured from: OpenStreetMap's, in the country index's
        // layout, beside the area index. Its vertices are its own (rounded to 2^-16°), so a
        // point within rounding of a clipped edge is settled on its rings, not on Natural
        // Earth's polygons.
        let index = try CountryIndex(path: build + "/" + LandIndexFormat.fileName, catalogueIDs: ids, access: .random)
        return CountryResolver(catalogue: catalogue, index: index, areas: areas, zoneIDs: zones, options: options)
    }

    /// The country or territory whose land or territorial sea holds the position, or `nil`
    /// beyond every territorial sea.
    public func containingCountry(_ position: Coordinate) -> Country? {
        holder(of: position, in: areas.region(at: position), measuringSea: false).map { catalogue.countries[$0.country] }
    }

    /// The IANA time zone at the position: its region's, or the nautical `Etc/GMT±N` of its
    /// longitude where no region holds it.
    public func timeZone(_ position: Coordinate) -> String {
        areas.region(at: position).map { zoneIDs[areas.zone(ofRegion: $0)] } ?? Self.nauticalZone(longitude: position.longitude)
    }

    /// `Etc/GMT±N` for the 15° band around a longitude (POSIX signs: west of Greenwich is +).
    static func nauticalZone(longitude: Double) -> String {
        IndexedResolution.nauticalZoneID(IndexedResolution.nauticalZone(longitude: longitude))
    }

    /// The position resolved with the measures of ``options``.
    public func resolve(_ position: Coordinate) -> Resolution {
        resolve(position, measuring: options.measures)
    }

    /// The positions resolved with the measures of ``options``, in blocks that overlap their
    /// memory waits (see ``resolveIndexed(_:measuring:into:)``).
    public func resolveIndexed(_ positions: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<IndexedResolution>) {
        resolveIndexed(positions, measuring: options.measures, into: results)
    }

    /// The position resolved with `measures`, whatever ``options`` says: the same answer a
    /// resolver built for those measures gives.
    public func resolve(_ position: Coordinate, measuring measures: ResolutionMeasures) -> Resolution {
        resolution(of: resolveIndexed(position, measuring: measures))
    }

    /// ``resolve(_:measuring:)``'s answer by index, with no string or object: what a batch
    /// writes from.
    public func resolveIndexed(_ position: Coordinate, measuring measures: ResolutionMeasures) -> IndexedResolution {
        var answer = resolveIndexed(position, measuring: measures, leavingMarkerDistance: ())
        if answer.reason == .nearestMarker { answer.distanceKm = markerDistanceKm(answer) }
        return answer
    }

    /// ``resolveIndexed(_:measuring:)``'s answer, except that a ``SuggestionReason/nearestMarker``
    /// suggestion's distance is left at 0 for ``markerDistanceKm(_:)`` to fill in: a batch
    /// measures a block's marker distances in one loop, where their long chains of
    /// trigonometry overlap.
    ///
    /// `found` is the position's region and land when a batch already has them.
    @inline(__always)
    func resolveIndexed(
        _ position: Coordinate, measuring measures: ResolutionMeasures, leavingMarkerDistance: Void, found: FoundLookups? = nil
    ) -> IndexedResolution {
        let seaSearchKm = max(measures.seaSearchKm, nearShoreKm)
        let region = found != nil ? found!.region : areas.region(at: position)
        let zone = region.map { Int32(areas.zone(ofRegion: $0)) } ?? IndexedResolution.nauticalZone(longitude: position.longitude)
        // A bounded sea search reaches past the territorial sea: the holder's search serves both.
        let bounded = seaSearchKm.isFinite && seaSearchKm <= nearShoreKm
        var searched: CoastSearch?
        if let (i, seaKm) = holder(
            of: position, in: region, measuringSea: measures.borderDistance,
            reachKm: bounded ? seaSearchKm : Self.territorialSeaKm, searched: &searched, found: found)
        {
            var answer: IndexedResolution
            if let news = newsCountry[i] {
                answer = IndexedResolution(
                    position: position, suggested: Int32(news), reason: news == i ? .inside : .sovereign, distanceKm: 0, zone: zone)
            } else {
                answer = nearestMarker(position, zone: zone)
            }
            answer.country = Int32(i)
            if measures.borderDistance {
                answer.borderDistanceKm = borderDistanceKm(at: position, country: i, region: region, seaKm: seaKm ?? 0)
            }
            return answer
        }
        let land: (countryIndex: Int, distanceKm: Double)?
        if let searched, searched.reachKm == seaSearchKm {
            land = searched.land
        } else if bounded && !mayBeNearShore(position, found: found) {
            land = nil
        } else {
            land = index.nearestLand(to: position, maxKm: seaSearchKm)
        }
        guard let land else { return nearestMarker(position, zone: zone) }
        var answer: IndexedResolution
        if land.distanceKm <= nearShoreKm, let news = newsCountry[land.countryIndex] {
            answer = IndexedResolution(
                position: position, suggested: Int32(news), reason: .offshore, distanceKm: land.distanceKm, zone: zone)
        } else {
            answer = nearestMarker(position, zone: zone)
        }
        answer.nearest = Int32(land.countryIndex)
        answer.nearestKm = land.distanceKm
        return answer
    }

    /// False only when no land lies within ``nearShoreKm`` of the position: the index's root
    /// cell's flag (read by a batch's descent when `found` is given), then the coast grid's
    /// finer one once it is built.
    @inline(__always)
    func mayBeNearShore(_ position: Coordinate, found: FoundLookups? = nil) -> Bool {
        let root = found?.rootMayBeNearShore ?? index.mayBeNearShore(longitude: position.longitude, latitude: position.latitude)
        guard root else { return false }
        return coastGrid?.mayBeNearShore(position) ?? true
    }

    /// The ``Resolution`` an indexed answer of this resolver stands for.
    public func resolution(of r: IndexedResolution) -> Resolution {
        let countries = catalogue.countries
        return Resolution(
            position: r.position, country: r.country < 0 ? nil : countries[Int(r.country)],
            nearest: r.nearest < 0 ? nil : NearestCountry(country: countries[Int(r.nearest)], distanceKm: r.nearestKm),
            suggestion: Suggestion(country: countries[Int(r.suggested)], reason: r.reason, distanceKm: r.distanceKm),
            timeZone: r.zoneID(in: zoneIDs), borderDistanceKm: r.borderDistanceKm)
    }

    /// The news country whose marker is nearest on the great circle.
    public func nearestMarker(_ position: Coordinate) -> Suggestion {
        let m = nearestMarker(position, zone: 0)
        return Suggestion(country: catalogue.countries[Int(m.suggested)], reason: .nearestMarker, distanceKm: markerDistanceKm(m))
    }

    /// The nearest news marker's suggestion as an indexed answer at sea in `zone`.
    private func nearestMarker(_ position: Coordinate, zone: Int32) -> IndexedResolution {
        var best = -1
        if let grid = markerGrid?.finished { best = MarkerGrid.marker(at: position, in: grid) }
        if best < 0 {
            let p = Self.unitVector(position)
            var bestDot = -Double.infinity
            best = 0
            for (k, m) in newsMarkers.enumerated() {
                let dot = p.x * m.x + p.y * m.y + p.z * m.z
                if dot > bestDot {
                    bestDot = dot
                    best = k
                }
            }
        }
        return IndexedResolution(
            position: position, suggested: Int32(newsMarkers[best].index), reason: .nearestMarker, distanceKm: 0, zone: zone)
    }

    /// The great-circle km from a ``SuggestionReason/nearestMarker`` answer's position to its
    /// suggested country's marker: the same figure as when a batch measures it among others
    /// (see ``measureMarkerDistances(_:at:)``).
    func markerDistanceKm(_ answer: IndexedResolution) -> Double {
        var one = answer
        var first = 0
        withUnsafeMutablePointer(to: &one) { a in
            withUnsafeMutablePointer(to: &first) { measureMarkerDistances(a, at: UnsafeBufferPointer(start: $0, count: 1)) }
        }
        return one.distanceKm
    }

    /// Sets the distance of the ``SuggestionReason/nearestMarker`` answers at `indexes` of
    /// `answers`, measured in SIMD lanes
    /// (``GreatCircle/distances(count:latitudes:longitudes:toLatitudes:toLongitudes:cosinesOfLatitude:into:)``).
    func measureMarkerDistances(_ answers: UnsafeMutablePointer<IndexedResolution>, at indexes: UnsafeBufferPointer<Int>) {
        let count = indexes.count
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 6 * count) { t in
            let b = t.baseAddress!
            markerPoints.withUnsafeBufferPointer { m in
                for (i, k) in indexes.enumerated() {
                    let a = answers[k], p = m[Int(a.suggested)]
                    b[i] = a.position.latitude
                    b[count + i] = a.position.longitude
                    b[2 * count + i] = p.marker.latitude
                    b[3 * count + i] = p.marker.longitude
                    b[4 * count + i] = p.cosineOfLatitude
                }
            }
            GreatCircle.distances(
                count: count, latitudes: b, longitudes: b + count, toLatitudes: b + 2 * count, toLongitudes: b + 3 * count,
                cosinesOfLatitude: b + 4 * count, into: b + 5 * count)
            for (i, k) in indexes.enumerated() { answers[k].distanceKm = b[5 * count + i] }
        }
    }
}

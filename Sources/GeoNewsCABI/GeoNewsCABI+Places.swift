import CGeoNewsABI
import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy
import GeoNewsTimeZones
import Synchronization

// The interface's answers beyond the six columns: one position whole (geonews_locate_json), and
// the region and the nearest populated place of arrays of positions (geonews_resolve_places),
// with the files they read loaded at their first call.

/// The files a whole answer for one position reads besides the indexes: the places (GeoNames),
/// the regions and the time-zone rules.
struct LocateParts: Sendable {
    let places: PlaceIndex
    let regions: RegionIndex
    let zoneRules: TimeZoneRules

    /// Loaded once per handle, under its lock; an error is not kept, so a file put right is
    /// read at the next call.
    static func of(_ handle: CHandle) throws(DataError) -> LocateParts {
        let loaded: Result<LocateParts, DataError> = handle.locateParts.withLock { parts in
            if let parts { return .success(parts) }
            do throws(DataError) {
                let made = LocateParts(
                    places: try PlaceIndex.load(from: handle.data, indexFolder: handle.indexFolder),
                    regions: try RegionIndex.load(from: handle.data, indexFolder: handle.indexFolder),
                    zoneRules: try TimeZoneRules.load(from: handle.data))
                parts = made
                return .success(made)
            } catch {
                return .failure(error)
            }
        }
        return try loaded.get()
    }
}

/// The names `geonews_resolve_places`'s indexes stand for: each region's codes and name (regions.json's
/// order) and each place's name and GeoNames id (places.bin's order), as C strings made once.
final class PlaceTables: Sendable {
    let parts: LocateParts
    /// The regions with their edges indexed (``RegionIndex/withEdgeIndex()``): the same answers,
    /// many times faster for arrays of positions; mapped from `region-edges.bin` in the index
    /// folder, or built there (about a tenth of a second) when it is not yet.
    let regions: RegionIndex
    let regionISO: CStrings, regionGeonames: CStrings, regionNames: CStrings
    let regionCount: Int32
    let placeNames: CStrings
    let placeIDs: [UInt32]
    let placeCount: Int32

    init(_ parts: LocateParts) {
        self.parts = parts
        self.regions = parts.regions.withEdgeIndex()
        let regions = (0..<parts.regions.regionCount).map { parts.regions.region(at: $0) }
        regionISO = CStrings(regions.map { $0.iso3166Code ?? "" })
        regionGeonames = CStrings(regions.map(\.geonamesAdmin1))
        regionNames = CStrings(regions.map(\.name))
        regionCount = Int32(regions.count)
        let places = (0..<parts.places.count).map { parts.places.place(at: $0) }
        placeNames = CStrings(places.map(\.name))
        placeIDs = places.map(\.geonameID)
        placeCount = Int32(places.count)
    }

    /// Made once per handle, under its lock, from ``LocateParts/of(_:)``.
    static func of(_ handle: CHandle) throws(DataError) -> PlaceTables {
        let parts = try LocateParts.of(handle)
        return handle.placeTables.withLock { tables in
            if let tables { return tables }
            let made = PlaceTables(parts)
            tables = made
            return made
        }
    }

    /// The tables when they are made, else nil (for the lookups by index, which make nothing).
    static func made(_ handle: CHandle) -> PlaceTables? { handle.placeTables.withLock { $0 } }

    /// The catalogue entry `country`'s key among the regions' countries, for each entry.
    func regionKey(_ country: Country) -> Int? { country.iso2.flatMap { regions.countryKey(iso2: $0) } }
}

@_cdecl("geonews_locate_json")
public func geonewsLocateJSON(
    _ h: OpaquePointer?, _ latitude: Double, _ longitude: Double, _ language: UnsafePointer<CChar>?,
    _ json: UnsafeMutablePointer<CChar>?, _ size: Int
) -> Int64 {
    guard let handle = handle(h), json != nil || size == 0 else { return -1 }
    guard latitude.isFinite, (-90.0...90.0).contains(latitude) else { return -2 }
    guard longitude.isFinite, (-180.0...180.0).contains(longitude) else { return -3 }
    let text: String
    do {
        let parts = try LocateParts.of(handle)
        let language = language.map { String(cString: $0) }
        let resolution = handle.resolver.resolve(Coordinate(latitude: latitude, longitude: longitude), measuring: .singlePosition)
        let region = resolution.country == nil ? nil : parts.regions.region(for: resolution)
        let report = ResolutionReport(resolution, language: language, zoneRules: parts.zoneRules)
        text = try report.withPlace(parts.places.place(for: resolution)).withRegion(region, language: language).jsonString()
    } catch {
        report("\(error)", into: json, size: size)
        return -4
    }
    let utf8 = text.utf8
    if let json, size > 0 {
        let n = min(utf8.count, size - 1)
        UnsafeMutableRawBufferPointer(start: json, count: n).copyBytes(from: utf8.prefix(n))
        json[n] = 0
    }
    return Int64(utf8.count)
}

@_cdecl("geonews_load_places")
public func geonewsLoadPlaces(_ h: OpaquePointer?, _ message: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int32 {
    guard let handle = handle(h) else { return -1 }
    do throws(DataError) {
        _ = try PlaceTables.of(handle)
        return 0
    } catch {
        report("\(error)", into: message, size: size)
        return -1
    }
}

@_cdecl("geonews_resolve_places")
public func geonewsResolvePlaces(
    _ h: OpaquePointer?, _ latitudes: UnsafePointer<Double>?, _ longitudes: UnsafePointer<Double>?, _ count: Int,
    _ columns: UnsafePointer<geonews_columns>?, _ placeColumns: UnsafePointer<geonews_place_columns>?
) -> Int64 {
    guard count > 0 else { return 0 }
    guard let handle = handle(h), let latitudes, let longitudes, let c = placeColumns?.pointee else { return -1 }
    guard let tables = try? PlaceTables.of(handle) else { return -4 }
    // The six columns too, when given, from the same resolution of each position.
    let base = columns?.pointee ?? geonews_columns()
    let countries = handle.resolver.catalogue.countries
    let places = tables.parts.places, regions = tables.regions
    return handle.codeOf.withUnsafeBufferPointer { codeOf in
        resolveBlocks(
            handle, latitudes, longitudes, count,
            unresolved: { i, error in
                base.putUnresolved(error, at: i)
                c.region?[i] = -1
                c.place?[i] = -1
                c.place_distance_km?[i] = 0
            },
            answered: { i, a in
                base.put(a, at: i, codeOf: codeOf, handle)
                let position = Coordinate(latitude: latitudes[i], longitude: longitudes[i])
                let country = a.country >= 0 ? countries[Int(a.country)] : nil
                if let region = c.region {
                    let k = country.flatMap { tables.regionKey($0) }.flatMap { regions.regionIndex(at: position, countryKey: $0) }
                    region[i] = k.map { Int32($0) } ?? -1
                }
                if c.place != nil || c.place_distance_km != nil {
                    let k = places.placeIndex(near: position, in: country)
                    c.place?[i] = k.map { Int32($0) } ?? -1
                    c.place_distance_km?[i] = k.map { places.distanceKm(from: position, to: $0) } ?? 0
                }
            })
    }
}

@_cdecl("geonews_region_count")
public func geonewsRegionCount(_ h: OpaquePointer?) -> Int32 {
    handle(h).flatMap { PlaceTables.made($0) }?.regionCount ?? 0
}

/// Region `k`'s string in `strings` of the handle's tables, nil outside or before they are made.
private func regionText(_ h: OpaquePointer?, _ k: Int32, _ strings: (PlaceTables) -> CStrings) -> UnsafePointer<CChar>? {
    guard let tables = handle(h).flatMap({ PlaceTables.made($0) }), k >= 0, k < tables.regionCount else { return nil }
    return strings(tables)[Int(k)]
}

@_cdecl("geonews_region_iso3166_2")
public func geonewsRegionISO(_ h: OpaquePointer?, _ k: Int32) -> UnsafePointer<CChar>? { regionText(h, k) { $0.regionISO } }

@_cdecl("geonews_region_geonames")
public func geonewsRegionGeonames(_ h: OpaquePointer?, _ k: Int32) -> UnsafePointer<CChar>? { regionText(h, k) { $0.regionGeonames } }

@_cdecl("geonews_region_name")
public func geonewsRegionName(_ h: OpaquePointer?, _ k: Int32) -> UnsafePointer<CChar>? { regionText(h, k) { $0.regionNames } }

@_cdecl("geonews_place_count")
public func geonewsPlaceCount(_ h: OpaquePointer?) -> Int32 {
    handle(h).flatMap { PlaceTables.made($0) }?.placeCount ?? 0
}

@_cdecl("geonews_place_name")
public func geonewsPlaceName(_ h: OpaquePointer?, _ k: Int32) -> UnsafePointer<CChar>? {
    guard let tables = handle(h).flatMap({ PlaceTables.made($0) }), k >= 0, k < tables.placeCount else { return nil }
    return tables.placeNames[Int(k)]
}

@_cdecl("geonews_place_geonameid")
public func geonewsPlaceGeonameID(_ h: OpaquePointer?, _ k: Int32) -> Int64 {
    guard let tables = handle(h).flatMap({ PlaceTables.made($0) }), k >= 0, k < tables.placeCount else { return -1 }
    return Int64(tables.placeIDs[Int(k)])
}

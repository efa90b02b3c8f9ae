import CGeoNewsABI
import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy
import GeoNewsTimeZones
import GeoNewsVersion
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C interface of libgeonews (Sources/CGeoNewsABI/geonews.h). Scripts/build-clib links
// this module, what it imports and the Swift runtime into one shared library that exports
// these functions alone. No function here traps on its input: a NULL or an index outside the
// catalogue gives NULL or -1, and a position out of range is an error in its result.

/// What a `geonews *` points to: the resolver, and every string the interface hands out, made
/// once as C strings so that none is allocated per call. Never changed after `open`, so any
/// number of threads may use one handle at once.
final class CHandle: Sendable {
    let resolver: CountryResolver
    /// The data folder, and the folder the indexes were read from when it was named.
    let data: DataDirectory
    let indexFolder: String?
    /// What `geonews_locate_json` reads beyond the resolver, loaded at its first call.
    let locateParts = Mutex<LocateParts?>(nil)
    /// The regions' and places' names for `geonews_resolve_places`, made at its first call.
    let placeTables = Mutex<PlaceTables?>(nil)
    let countryCount: Int32
    let iso2: CStrings, iso3: CStrings, names: CStrings
    /// The zones' ids by index, then the nautical zones' from -1 down.
    let zones: CStrings
    let zoneCount: Int32

    /// The distinct codes and zone ids, sorted, and each catalogue index's and zone's place
    /// among them (the zones', then the nautical zones' from -1 down).
    let codes: CStrings, codeCount: Int32, codeOf: [Int16]
    let zoneNames: CStrings, zoneNameCount: Int32, zoneNameOf: [Int16]

    init(resolver: CountryResolver, data: DataDirectory, indexFolder: String?) {
        self.resolver = resolver
        self.data = data
        self.indexFolder = indexFolder
        let countries = resolver.catalogue.countries
        countryCount = Int32(countries.count)
        let codes = countries.map { $0.iso2 ?? "" }
        iso2 = CStrings(codes)
        iso3 = CStrings(countries.map { $0.iso3 ?? "" })
        names = CStrings(countries.map(\.name))
        zoneCount = Int32(resolver.zoneIDs.count)
        let zones = resolver.zoneIDs + (1...25).map { IndexedResolution.nauticalZoneID(-Int32($0)) }
        self.zones = CStrings(zones)
        (self.codes, codeCount, codeOf) = Self.distinct(codes)
        (zoneNames, zoneNameCount, zoneNameOf) = Self.distinct(zones)
    }

    /// `strings` once each, sorted, and each one's place among them.
    private static func distinct(_ strings: [String]) -> (CStrings, Int32, [Int16]) {
        let sorted = Array(Set(strings)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var place: [String: Int16] = [:]
        for (k, s) in sorted.enumerated() { place[s] = Int16(k) }
        return (CStrings(sorted), Int32(sorted.count), strings.map { place[$0]! })
    }

    /// The zone's place among the distinct zone ids.
    @inline(__always)
    func zoneName(_ z: Int32) -> Int16 { zoneNameOf[slot(ofZone: z)] }

    func zone(_ z: Int32) -> UnsafePointer<CChar>? {
        guard z < zoneCount, z >= -25 else { return nil }
        return zones[slot(ofZone: z)]
    }

    /// Where a result's zone lies in ``zones``: the zones by index, then the nautical ones
    /// from -1 down to -25.
    @inline(__always)
    private func slot(ofZone z: Int32) -> Int { z >= 0 ? Int(z) : Int(zoneCount) + Int(-z) - 1 }

    func country(_ c: Int32, in strings: CStrings) -> UnsafePointer<CChar>? {
        c >= 0 && c < countryCount ? strings[Int(c)] : nil
    }
}

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
                    regions: try RegionIndex.load(from: handle.data),
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
    /// many times faster for arrays of positions, after a build of about a tenth of a second.
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

/// NUL-terminated copies of strings, one block, freed with their owner.
final class CStrings: @unchecked Sendable {
    // Sendable: written in init only.
    private let block: UnsafeMutablePointer<CChar>
    private let starts: [Int]

    init(_ strings: [String]) {
        var starts: [Int] = []
        var bytes: [CChar] = []
        for s in strings {
            starts.append(bytes.count)
            bytes += s.utf8.map { CChar(bitPattern: $0) } + [0]
        }
        block = .allocate(capacity: max(bytes.count, 1))
        block.initialize(from: bytes, count: bytes.count)
        self.starts = starts
    }

    deinit { block.deallocate() }

    subscript(i: Int) -> UnsafePointer<CChar> { UnsafePointer(block + starts[i]) }
}

private let versionText = CStrings([GeoNewsRelease.version])
private let reasonTexts = CStrings(["inside", "sovereign", "offshore", "nearest-marker"])

private func handle(_ h: OpaquePointer?) -> CHandle? {
    h.map { Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
}

/// The caller's buffer for a message.
typealias CMessage = UnsafeMutablePointer<CChar>

/// Writes `message` into the caller's buffer: as many whole characters as fit, terminated.
private func report(_ message: String, into buffer: UnsafeMutablePointer<CChar>?, size: Int) {
    guard let buffer, size > 0 else { return }
    var n = 0
    for scalar in message.unicodeScalars {
        let utf8 = Array(String(scalar).utf8)
        guard n + utf8.count <= size - 1 else { break }
        for b in utf8 {
            buffer[n] = CChar(bitPattern: b)
            n += 1
        }
    }
    buffer[n] = 0
}

@_cdecl("geonews_version")
public func geonewsVersion() -> UnsafePointer<CChar> { versionText[0] }

@_cdecl("geonews_abi_version")
public func geonewsABIVersion() -> Int32 { GEONEWS_ABI_VERSION }

@_cdecl("geonews_open")
public func geonewsOpen(_ path: UnsafePointer<CChar>?, _ message: UnsafeMutablePointer<CChar>?, _ messageSize: Int) -> OpaquePointer? {
    openHandle(path, nil, message, messageSize)
}

@_cdecl("geonews_open_at")
public func geonewsOpenAt(
    _ path: UnsafePointer<CChar>?, _ indexFolder: UnsafePointer<CChar>?, _ message: UnsafeMutablePointer<CChar>?, _ messageSize: Int
) -> OpaquePointer? {
    openHandle(path, indexFolder.map { String(cString: $0) }, message, messageSize)
}

/// A handle on the data folder `path` (or the one found the default way), its indexes read from
/// `indexFolder` or from where the data folder names; `nil` with the error in `message`.
private func openHandle(_ path: UnsafePointer<CChar>?, _ indexFolder: String?, _ message: CMessage?, _ size: Int) -> OpaquePointer? {
    do throws(DataError) {
        let data: DataDirectory
        if let path { data = DataDirectory(path: String(cString: path)) } else { data = try DataDirectory.locate() }
        if let indexFolder {
            // That folder alone: made and filled from the packs when it does not hold them.
            try data.installAreaIndex(into: indexFolder)
        } else if access(data.areaIndexFolder + "/" + AreaIndexRecord.fileName, R_OK) != 0 {
            // Where the resolver reads the indexes, unpacked into the cache on a first run.
            try data.installAreaIndex()
        }
        let resolver = try CountryResolver.load(from: data, indexFolder: indexFolder, options: .batch)
        return OpaquePointer(Unmanaged.passRetained(CHandle(resolver: resolver, data: data, indexFolder: indexFolder)).toOpaque())
    } catch {
        report("\(error)", into: message, size: size)
        return nil
    }
}

@_cdecl("geonews_close")
public func geonewsClose(_ h: OpaquePointer?) {
    guard let h else { return }
    Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer(h)).release()
}

@_cdecl("geonews_resolve")
public func geonewsResolve(
    _ h: OpaquePointer?, _ latitudes: UnsafePointer<Double>?, _ longitudes: UnsafePointer<Double>?, _ count: Int,
    _ results: UnsafeMutablePointer<geonews_result>?
) -> Int64 {
    guard count > 0 else { return 0 }
    guard let handle = handle(h), let latitudes, let longitudes, let results else { return -1 }
    return resolveBlocks(
        handle, latitudes, longitudes, count,
        unresolved: { i, error in
            results[i] = geonews_result(
                country: -1, suggested: -1, reason: -1, zone: Int32.min, distance_km: 0, error: Int32(error.rawValue), reserved: 0)
        },
        answered: { i, a in
            results[i] = geonews_result(
                country: a.country, suggested: a.suggested, reason: Int32(reasonCode(a.reason)), zone: a.zone,
                distance_km: a.distanceKm, error: 0, reserved: 0)
        })
}

@_cdecl("geonews_resolve_columns")
public func geonewsResolveColumns(
    _ h: OpaquePointer?, _ latitudes: UnsafePointer<Double>?, _ longitudes: UnsafePointer<Double>?, _ count: Int,
    _ columns: UnsafePointer<geonews_columns>?
) -> Int64 {
    guard count > 0 else { return 0 }
    guard let handle = handle(h), let latitudes, let longitudes, let c = columns?.pointee else { return -1 }
    return handle.codeOf.withUnsafeBufferPointer { codeOf in
        resolveBlocks(
            handle, latitudes, longitudes, count,
            unresolved: { i, error in
                c.country?[i] = -1
                c.suggested?[i] = -1
                c.reason?[i] = -1
                c.zone?[i] = -1
                c.distance_km?[i] = 0
                c.error?[i] = Int8(error.rawValue)
            },
            answered: { i, a in
                c.country?[i] = a.country >= 0 ? codeOf[Int(a.country)] : -1
                c.suggested?[i] = codeOf[Int(a.suggested)]
                c.reason?[i] = reasonCode(a.reason)
                c.zone?[i] = handle.zoneName(a.zone)
                c.distance_km?[i] = a.distanceKm
                c.error?[i] = 0
            })
    }
}

/// `enum geonews_reason`'s value of a reason.
@inline(__always)
private func reasonCode(_ reason: SuggestionReason) -> Int8 {
    switch reason {
    case .inside: 0
    case .sovereign: 1
    case .offshore: 2
    case .nearestMarker: 3
    }
}

/// Checks each position, resolves the valid ones by blocks through the resolver's batch path,
/// and hands each row to `unresolved` (with why) or `answered`; returns how many were answered.
@inline(__always)
private func resolveBlocks(
    _ handle: CHandle, _ latitudes: UnsafePointer<Double>, _ longitudes: UnsafePointer<Double>, _ count: Int,
    unresolved: (Int, geonews_error) -> Void, answered: (Int, IndexedResolution) -> Void
) -> Int64 {
    let block = 1024
    var resolved: Int64 = 0
    withUnsafeTemporaryAllocation(of: Coordinate.self, capacity: block) { positions in
        withUnsafeTemporaryAllocation(of: IndexedResolution.self, capacity: block) { answers in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: block) { rows in
                var start = 0
                while start < count {
                    let end = min(start + block, count)
                    var n = 0
                    for i in start..<end {
                        let lat = latitudes[i], lon = longitudes[i]
                        if !(lat.isFinite && (-90.0...90.0).contains(lat)) {
                            unresolved(i, GEONEWS_ERROR_LATITUDE)
                        } else if !(lon.isFinite && (-180.0...180.0).contains(lon)) {
                            unresolved(i, GEONEWS_ERROR_LONGITUDE)
                        } else {
                            positions[n] = Coordinate(latitude: lat, longitude: lon)
                            rows[n] = i
                            n += 1
                        }
                    }
                    handle.resolver.resolveIndexed(
                        UnsafeBufferPointer(rebasing: positions[..<n]), into: UnsafeMutableBufferPointer(rebasing: answers[..<n]))
                    for k in 0..<n { answered(rows[k], answers[k]) }
                    resolved += Int64(n)
                    start = end
                }
            }
        }
    }
    return resolved
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
    _ columns: UnsafePointer<geonews_place_columns>?
) -> Int64 {
    guard count > 0 else { return 0 }
    guard let handle = handle(h), let latitudes, let longitudes, let c = columns?.pointee else { return -1 }
    guard let tables = try? PlaceTables.of(handle) else { return -4 }
    let countries = handle.resolver.catalogue.countries
    let places = tables.parts.places, regions = tables.regions
    return resolveBlocks(
        handle, latitudes, longitudes, count,
        unresolved: { i, _ in
            c.region?[i] = -1
            c.place?[i] = -1
            c.place_distance_km?[i] = 0
        },
        answered: { i, a in
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

@_cdecl("geonews_code_count")
public func geonewsCodeCount(_ h: OpaquePointer?) -> Int32 { handle(h)?.codeCount ?? 0 }

@_cdecl("geonews_code")
public func geonewsCode(_ h: OpaquePointer?, _ k: Int32) -> UnsafePointer<CChar>? {
    guard let handle = handle(h), k >= 0, k < handle.codeCount else { return nil }
    return handle.codes[Int(k)]
}

@_cdecl("geonews_zone_name_count")
public func geonewsZoneNameCount(_ h: OpaquePointer?) -> Int32 { handle(h)?.zoneNameCount ?? 0 }

@_cdecl("geonews_zone_name")
public func geonewsZoneName(_ h: OpaquePointer?, _ k: Int32) -> UnsafePointer<CChar>? {
    guard let handle = handle(h), k >= 0, k < handle.zoneNameCount else { return nil }
    return handle.zoneNames[Int(k)]
}

@_cdecl("geonews_country_count")
public func geonewsCountryCount(_ h: OpaquePointer?) -> Int32 { handle(h)?.countryCount ?? 0 }

@_cdecl("geonews_country_iso2")
public func geonewsCountryISO2(_ h: OpaquePointer?, _ c: Int32) -> UnsafePointer<CChar>? {
    handle(h).flatMap { $0.country(c, in: $0.iso2) }
}

@_cdecl("geonews_country_iso3")
public func geonewsCountryISO3(_ h: OpaquePointer?, _ c: Int32) -> UnsafePointer<CChar>? {
    handle(h).flatMap { $0.country(c, in: $0.iso3) }
}

@_cdecl("geonews_country_name")
public func geonewsCountryName(_ h: OpaquePointer?, _ c: Int32) -> UnsafePointer<CChar>? {
    handle(h).flatMap { $0.country(c, in: $0.names) }
}

@_cdecl("geonews_zone_id")
public func geonewsZoneID(_ h: OpaquePointer?, _ z: Int32) -> UnsafePointer<CChar>? { handle(h)?.zone(z) }

@_cdecl("geonews_reason_name")
public func geonewsReasonName(_ r: Int32) -> UnsafePointer<CChar>? { (0..<4).contains(r) ? reasonTexts[Int(r)] : nil }

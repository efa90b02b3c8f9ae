import CGeoNewsABI
import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy
import GeoNewsVersion

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
    let countryCount: Int32
    let iso2: CStrings, iso3: CStrings, names: CStrings
    /// The zones' ids by index, then the nautical zones' from -1 down.
    let zones: CStrings
    let zoneCount: Int32

    init(resolver: CountryResolver) {
        self.resolver = resolver
        let countries = resolver.catalogue.countries
        countryCount = Int32(countries.count)
        iso2 = CStrings(countries.map { $0.iso2 ?? "" })
        iso3 = CStrings(countries.map { $0.iso3 ?? "" })
        names = CStrings(countries.map(\.name))
        zoneCount = Int32(resolver.zoneIDs.count)
        zones = CStrings(resolver.zoneIDs + (1...25).map { IndexedResolution.nauticalZoneID(-Int32($0)) })
    }

    func zone(_ z: Int32) -> UnsafePointer<CChar>? {
        if z >= 0 { return z < zoneCount ? zones[Int(z)] : nil }
        return z >= -25 ? zones[Int(zoneCount) + Int(-z) - 1] : nil
    }

    func country(_ c: Int32, in strings: CStrings) -> UnsafePointer<CChar>? {
        c >= 0 && c < countryCount ? strings[Int(c)] : nil
    }
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
private let reasons: [SuggestionReason] = [.inside, .sovereign, .offshore, .nearestMarker]

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
        return OpaquePointer(Unmanaged.passRetained(CHandle(resolver: resolver)).toOpaque())
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
                        var error = GEONEWS_OK
                        if !(lat.isFinite && (-90.0...90.0).contains(lat)) {
                            error = GEONEWS_ERROR_LATITUDE
                        } else if !(lon.isFinite && (-180.0...180.0).contains(lon)) {
                            error = GEONEWS_ERROR_LONGITUDE
                        }
                        if error == GEONEWS_OK {
                            positions[n] = Coordinate(latitude: lat, longitude: lon)
                            rows[n] = i
                            n += 1
                        } else {
                            results[i] = geonews_result(
                                country: -1, suggested: -1, reason: -1, zone: Int32.min, distance_km: 0, error: Int32(error.rawValue),
                                reserved: 0)
                        }
                    }
                    handle.resolver.resolveIndexed(
                        UnsafeBufferPointer(rebasing: positions[..<n]), into: UnsafeMutableBufferPointer(rebasing: answers[..<n]))
                    for k in 0..<n {
                        let a = answers[k]
                        results[rows[k]] = geonews_result(
                            country: a.country, suggested: a.suggested, reason: Int32(reasons.firstIndex(of: a.reason) ?? -1),
                            zone: a.zone, distance_km: a.distanceKm, error: 0, reserved: 0)
                    }
                    resolved += Int64(n)
                    start = end
                }
            }
        }
    }
    return resolved
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

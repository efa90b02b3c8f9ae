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

private let versionText = CStrings([GeoNewsRelease.version])
private let reasonTexts = CStrings(["inside", "sovereign", "offshore", "nearest-marker"])

func handle(_ h: OpaquePointer?) -> CHandle? {
    h.map { Unmanaged<CHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
}

/// The caller's buffer for a message.
typealias CMessage = UnsafeMutablePointer<CChar>

/// Writes `message` into the caller's buffer: as many whole characters as fit, terminated.
func report(_ message: String, into buffer: UnsafeMutablePointer<CChar>?, size: Int) {
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
    if c.country == nil, c.suggested == nil, c.reason == nil, c.distance_km == nil {
        // The zone alone (or nothing but the errors): the regions' tree is all it reads.
        return answerBlocks(
            latitudes, longitudes, count, resolve: { handle.resolver.zonesIndexed($0, into: $1) },
            unresolved: { i, error in c.putUnresolved(error, at: i) },
            answered: { i, zone in
                c.zone?[i] = handle.zoneName(zone)
                c.error?[i] = 0
            })
    }
    return handle.codeOf.withUnsafeBufferPointer { codeOf in
        resolveBlocks(
            handle, latitudes, longitudes, count,
            unresolved: { i, error in c.putUnresolved(error, at: i) },
            answered: { i, a in c.put(a, at: i, codeOf: codeOf, handle) })
    }
}

extension geonews_columns {
    /// Row `i` of the columns given (those not NULL) for a position not resolved.
    @inline(__always)
    func putUnresolved(_ error: geonews_error, at i: Int) {
        country?[i] = -1
        suggested?[i] = -1
        reason?[i] = -1
        zone?[i] = -1
        distance_km?[i] = 0
        self.error?[i] = Int8(error.rawValue)
    }

    /// Row `i` of the columns given for answer `a`; `codeOf` is the handle's ``CHandle/codeOf``.
    @inline(__always)
    func put(_ a: IndexedResolution, at i: Int, codeOf: UnsafeBufferPointer<Int16>, _ handle: CHandle) {
        country?[i] = a.country >= 0 ? codeOf[Int(a.country)] : -1
        suggested?[i] = codeOf[Int(a.suggested)]
        reason?[i] = reasonCode(a.reason)
        zone?[i] = handle.zoneName(a.zone)
        distance_km?[i] = a.distanceKm
        error?[i] = 0
    }
}

/// `enum geonews_reason`'s value of a reason.
@inline(__always)
func reasonCode(_ reason: SuggestionReason) -> Int8 {
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
func resolveBlocks(
    _ handle: CHandle, _ latitudes: UnsafePointer<Double>, _ longitudes: UnsafePointer<Double>, _ count: Int,
    unresolved: (Int, geonews_error) -> Void, answered: (Int, IndexedResolution) -> Void
) -> Int64 {
    answerBlocks(
        latitudes, longitudes, count, resolve: { handle.resolver.resolveIndexed($0, into: $1) }, unresolved: unresolved,
        answered: answered)
}

/// The valid positions' answers from `resolve`, a block of ``validBlock`` at a time, each handed
/// to `answered` with its row; returns how many were answered. ``resolveBlocks(_:_:_:_:unresolved:answered:)``
/// with the resolver's batch, or with
/// ``/GeoNewsBoundaries/CountryResolver/zonesIndexed(_:into:)`` for the time zone alone.
@inline(__always)
func answerBlocks<Answer>(
    _ latitudes: UnsafePointer<Double>, _ longitudes: UnsafePointer<Double>, _ count: Int,
    resolve: (UnsafeBufferPointer<Coordinate>, UnsafeMutableBufferPointer<Answer>) -> Void,
    unresolved: (Int, geonews_error) -> Void, answered: (Int, Answer) -> Void
) -> Int64 {
    withUnsafeTemporaryAllocation(of: Answer.self, capacity: validBlock) { answers in
        validBlocks(latitudes, longitudes, count, unresolved: unresolved) { positions, rows in
            let answers = UnsafeMutableBufferPointer(rebasing: answers[..<positions.count])
            resolve(positions, answers)
            for k in 0..<positions.count { answered(rows[k], answers[k]) }
        }
    }
}

/// Positions per block of ``validBlocks(_:_:_:unresolved:_:)``.
private let validBlock = 1024

/// Checks each position, hands each one that is not a position to `unresolved` (with why),
/// and the valid ones to `resolve` by blocks of at most ``validBlock``, with their rows;
/// returns how many were valid.
@inline(__always)
private func validBlocks(
    _ latitudes: UnsafePointer<Double>, _ longitudes: UnsafePointer<Double>, _ count: Int,
    unresolved: (Int, geonews_error) -> Void, _ resolve: (UnsafeBufferPointer<Coordinate>, UnsafeBufferPointer<Int>) -> Void
) -> Int64 {
    var resolved: Int64 = 0
    withUnsafeTemporaryAllocation(of: Coordinate.self, capacity: validBlock) { positions in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: validBlock) { rows in
            var start = 0
            while start < count {
                let end = min(start + validBlock, count)
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
                resolve(UnsafeBufferPointer(rebasing: positions[..<n]), UnsafeBufferPointer(rebasing: rows[..<n]))
                resolved += Int64(n)
                start = end
            }
        }
    }
    return resolved
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

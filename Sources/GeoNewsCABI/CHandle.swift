import CGeoNewsABI
import GeoNewsBoundaries
import GeoNewsData
import Synchronization

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

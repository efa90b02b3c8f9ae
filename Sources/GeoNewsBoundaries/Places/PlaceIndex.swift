import GeoNewsData
import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// GeoNames' populated places (`Data/places.tsv.gz`, cities500) and the exact nearest one to a
/// position: the same place a brute-force great-circle search over them finds, by a k-d tree
/// over the places' unit vectors (the chord between two points on the sphere grows with the arc
/// between them, so the nearest by chord is the nearest on the great circle).
///
/// Loading maps `places.bin`, built from the source on first use beside the area index (see
/// ``load(from:)``): a few system calls. Immutable and lock-free.
public final class PlaceIndex: @unchecked Sendable {
    // Sendable: the bytes are read-only (a PROT_READ map, or memory owned here) until deinit.
    /// How many places it holds.
    public let count: Int
    /// Where the index was read (`places.bin`), or the source's path when it was built in memory.
    public let path: String
    private let bytes: UnsafeRawBufferPointer
    private let owned: UnsafeMutableRawBufferPointer?
    private let mapped: MappedFile?
    private let sections: PlaceIndexFormat.Sections
    /// Per two-letter code (26 × 26 slots, `A` = 0): the country's first place and count.
    private let countries: [(start: Int32, count: Int32)]
    /// The countries in file order: each one's first place and its code, for the code of a place.
    private let starts: [(start: Int32, code: String)]

    /// The places in `directory`'s `places.tsv.gz`: `places.bin` in ``/GeoNewsData/DataDirectory/areaIndexFolder``
    /// when it was built from that very file (its gzip trailer and size match), else built now
    /// (under a second) and written there for the next run; where that folder cannot be
    /// written, kept in memory.
    public static func load(from directory: DataDirectory) throws(DataError) -> PlaceIndex {
        try load(from: directory, indexFolder: nil)
    }

    /// ``load(from:)`` with `places.bin` in `indexFolder` instead, when given (a library's own
    /// folder of indexes).
    public static func load(from directory: DataDirectory, indexFolder: String?) throws(DataError) -> PlaceIndex {
        let source = directory.file(PlaceIndexFormat.sourceName)
        let folder = indexFolder ?? directory.areaIndexFolder
        return try load(source: source, index: folder + "/" + PlaceIndexFormat.fileName)
    }

    /// ``load(from:)`` with the two paths named.
    public static func load(source: String, index: String) throws(DataError) -> PlaceIndex {
        let identity = try PlaceIndexBuild.identity(ofSource: source)
        // A search reads a few scattered pages: mapped as the area index is.
        func mapped() -> MappedFile? { try? MappedFile(path: index, access: .random) }
        if let file = mapped(), let built = try? PlaceIndex(mapped: file), built.matches(identity) {
            return built
        }
        let bytes = try PlaceIndexBuild.build(source: source)
        if DerivedFile.store(bytes, at: index), let file = mapped() { return try PlaceIndex(mapped: file) }
        return try PlaceIndex(copying: bytes, path: source)
    }

    /// The index in `bytes` (a built `places.bin`), copied.
    public convenience init(copying bytes: [UInt8], path: String) throws(DataError) {
        let owned = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { owned.copyMemory(from: $0) }
        try self.init(bytes: UnsafeRawBufferPointer(rebasing: owned[0..<bytes.count]), path: path, owned: owned, mapped: nil)
    }

    convenience init(mapped: MappedFile) throws(DataError) {
        try self.init(bytes: mapped.bytes, path: mapped.path, owned: nil, mapped: mapped)
    }

    private init(bytes: UnsafeRawBufferPointer, path: String, owned: UnsafeMutableRawBufferPointer?, mapped: MappedFile?) throws(DataError)
    {
        self.bytes = bytes
        self.path = path
        self.owned = owned
        self.mapped = mapped
        do throws(DataError) {
            func bad(_ why: String) -> DataError { .corrupt(path: path, reason: why) }
            guard bytes.count >= PlaceIndexFormat.headerBytes, Array(bytes[0..<8]) == PlaceIndexFormat.magic else {
                throw bad("not a place index (no GNPLACE1 header)")
            }
            guard Self.u32(bytes, 8) == PlaceIndexFormat.version else {
                throw bad("version \(Self.u32(bytes, 8)), not \(PlaceIndexFormat.version)")
            }
            let n = Int(Self.u32(bytes, 12)), c = Int(Self.u32(bytes, 32)), s = Int(Self.u32(bytes, 36))
            guard n > 0, n <= PlaceIndexFormat.maxPlaces, c <= 26 * 26, s <= PlaceIndexFormat.maxStringBytes else {
                throw bad("\(n) places, \(c) countries or \(s) string bytes, out of bounds")
            }
            let sections = PlaceIndexFormat.Sections(places: n, countries: c, stringBytes: s)
            guard sections.end == bytes.count else { throw bad("\(bytes.count) bytes where its header declares \(sections.end)") }
            var table = [(start: Int32, count: Int32)](repeating: (0, 0), count: 26 * 26)
            var covered = 0
            var starts: [(start: Int32, code: String)] = []
            for k in 0..<c {
                let at = sections.countries + k * PlaceIndexFormat.countryBytes
                let a = Int(bytes[at]) - 65, b = Int(bytes[at + 1]) - 65
                let start = Int(Self.u32(bytes, at + 4)), count = Int(Self.u32(bytes, at + 8))
                guard (0..<26).contains(a), (0..<26).contains(b), start == covered, count > 0, count <= n - start else {
                    throw bad("country entry \(k) is not a code and a range that follows the last")
                }
                table[a * 26 + b] = (Int32(start), Int32(count))
                starts.append((Int32(start), String(decoding: [bytes[at], bytes[at + 1]], as: UTF8.self)))
                covered += count
            }
            guard covered == n else { throw bad("the countries hold \(covered) of \(n) places") }
            // The string offsets and the global tree are bounded where they are read (``record(_:)``,
            // ``search(_:depth:query:best:global:)``), so that a load touches only the header.
            self.count = n
            self.sections = sections
            self.countries = table
            self.starts = starts
        } catch {
            owned?.deallocate()
            throw error
        }
    }

    deinit { owned?.deallocate() }

    /// Whether this index was built from the source with this identity.
    func matches(_ identity: (bytes: UInt64, crc: UInt32, size: UInt32)) -> Bool {
        bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == identity.bytes.littleEndian
            && Self.u32(bytes, 24) == identity.crc && Self.u32(bytes, 28) == identity.size
    }

    /// How many places GeoNames puts in the country with this ISO 3166-1 alpha-2 code.
    public func placeCount(inCountry iso2: String) -> Int {
        Self.slot(iso2).map { Int(countries[$0].count) } ?? 0
    }

    /// The nearest place that GeoNames puts in the country `iso2`, or `nil` when it has none
    /// there (as for Bouvet Island).
    public func nearest(to position: Coordinate, inCountry iso2: String) -> NearestPlace? {
        guard let slot = Self.slot(iso2), let k = nearestIndex(to: position, inCountrySlot: slot) else { return nil }
        return answer(k, position)
    }

    /// The nearest place of any country within `km` of the position, or `nil` when none is.
    public func nearest(to position: Coordinate, withinKm km: Double) -> NearestPlace? {
        nearestIndex(to: position, withinKm: km).map { answer($0.index, position) }
    }

    /// ``nearest(to:inCountry:)`` by the country's ``slot(_:)``: the place's position in the file.
    package func nearestIndex(to position: Coordinate, inCountrySlot slot: Int) -> Int? {
        guard slot >= 0, slot < countries.count, countries[slot].count > 0 else { return nil }
        let range = Int(countries[slot].start)..<Int(countries[slot].start + countries[slot].count)
        var best = Best(limit: 4.5)  // a chord is at most 2: every place is nearer
        search(range, depth: 0, query: Self.unitVector(position), best: &best, global: false)
        return best.index
    }

    /// ``nearest(to:withinKm:)`` as the place's position in the file and its great-circle km.
    package func nearestIndex(to position: Coordinate, withinKm km: Double) -> (index: Int, km: Double)? {
        guard km >= 0 else { return nil }
        // Most of the sea is farther than the reach from every place: its cells say so.
        if km <= PlaceIndexFormat.reachKm && !mayReach(position) { return nil }
        // The chord of an arc of θ radians is 2 sin(θ / 2); a little more, so that rounding never
        // drops a place at the limit, which the great-circle distance then decides.
        let θ = min(km / GreatCircle.meanEarthRadiusKm, .pi)
        let chord = 2 * sin(θ / 2) * (1 + 1e-9) + 1e-12
        var best = Best(limit: chord * chord)
        search(0..<count, depth: 0, query: Self.unitVector(position), best: &best, global: true)
        guard let found = best.index else { return nil }
        let d = distanceKm(from: position, to: found)
        return d <= km ? (found, d) : nil
    }

    /// Whether a place may lie within ``PlaceIndexFormat/reachKm`` of the position: its 1/4° cell's
    /// bit (a position on the antimeridian or a pole takes the cell its degrees fall in).
    private func mayReach(_ position: Coordinate) -> Bool {
        let perDegree = Double(PlaceIndexFormat.reachCellsPerDegree)
        guard position.latitude.isFinite, position.longitude.isFinite else { return true }
        let row = min(PlaceIndexFormat.reachRows - 1, max(0, Int(((position.latitude + 90) * perDegree).rounded(.down))))
        let column = min(PlaceIndexFormat.reachColumns - 1, max(0, Int(((position.longitude + 180) * perDegree).rounded(.down))))
        let bit = row * PlaceIndexFormat.reachColumns + column
        return bytes[sections.reach + bit / 8] & (1 << UInt8(bit % 8)) != 0
    }

    /// Great-circle km from `position` to the place at `k`.
    package func distanceKm(from position: Coordinate, to k: Int) -> Double {
        GreatCircle.distance(from: position, to: coordinate(k))
    }

    /// The GeoNames id of the place at `k`.
    package func geonameID(ofPlaceAt k: Int) -> UInt32 { id(k) }

    /// The UTF-8 bytes of the name of the place at `k` (empty in a damaged file), for writers
    /// that copy them without making a String.
    package func nameBytes(ofPlaceAt k: Int) -> UnsafeRawBufferPointer {
        let name = Int(Self.u32(bytes, sections.stringOffsets + 8 * k))
        let end = Int(Self.u32(bytes, sections.stringOffsets + 8 * k + 4))
        let text = UnsafeRawBufferPointer(rebasing: bytes[sections.strings..<sections.end])
        return name <= end && end <= text.count
            ? UnsafeRawBufferPointer(rebasing: text[name..<end]) : UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The slot of the country a resolution's place is sought in (see ``place(for:)``): its ISO
    /// code's, or its sovereign's; `nil` where it has neither.
    package static func slot(of country: Country) -> Int? {
        (country.iso2 ?? country.sovereignIso2).flatMap(slot)
    }

    /// How far from the position a place is sought when no country holds it (beyond every
    /// territorial sea): 50 km.
    public static let openSeaReachKm = 50.0

    /// The place a resolution answers: inside a country, the nearest place GeoNames puts in that
    /// country (its ISO code; a country without one, as Somaliland, takes its sovereign's), or
    /// none when GeoNames has none there; with no country, the nearest place of any country
    /// within ``openSeaReachKm``, or none.
    public func place(for resolution: Resolution) -> NearestPlace? {
        guard let country = resolution.country else { return nearest(to: resolution.position, withinKm: Self.openSeaReachKm) }
        guard let slot = Self.slot(of: country), let k = nearestIndex(to: resolution.position, inCountrySlot: slot) else { return nil }
        return answer(k, resolution.position)
    }

    /// ``place(for:)`` for a position and the catalogue entry that holds it (`nil` beyond every
    /// territorial sea), as the place's index (``place(at:)``): no record decoded.
    package func placeIndex(near position: Coordinate, in country: Country?) -> Int? {
        guard let country else { return nearestIndex(to: position, withinKm: Self.openSeaReachKm)?.index }
        return Self.slot(of: country).flatMap { nearestIndex(to: position, inCountrySlot: $0) }
    }

    /// How far from a position its town is sought: 15 km.
    public static let townReachKm = 15.0

    /// The town of a resolution, the name its local news is sought under: the most populous
    /// place within ``townReachKm`` in the country ``place(for:)`` searches (ties go to the nearer),
    /// else the place that ``place(for:)`` answers. A position in the first district of Lyon
    /// ("Lyon 01", 29,641 people) has Lyon (520,774) for its town.
    public func town(for resolution: Resolution) -> NearestPlace? {
        guard let nearest = place(for: resolution) else { return nil }
        guard let country = resolution.country else { return town(near: resolution.position, slot: nil, nearest: nearest) }
        return Self.slot(of: country).map { town(near: resolution.position, slot: $0, nearest: nearest) } ?? nearest
    }

    /// ``town(for:)`` in the country `iso2`: the most populous of its places within
    /// ``townReachKm``, else its nearest; `nil` when GeoNames has no place in it.
    public func town(near position: Coordinate, inCountry iso2: String) -> NearestPlace? {
        guard let slot = Self.slot(iso2), let nearest = nearest(to: position, inCountry: iso2) else { return nil }
        return town(near: position, slot: slot, nearest: nearest)
    }

    /// The most populous place within ``townReachKm`` among the country's (`slot`) or all
    /// (`nil`), if it has more people than `nearest`; else `nearest`.
    private func town(near position: Coordinate, slot: Int?, nearest: NearestPlace) -> NearestPlace {
        let range = slot.map { Int(countries[$0].start)..<Int(countries[$0].start + countries[$0].count) } ?? 0..<count
        let θ = min(Self.townReachKm / GreatCircle.meanEarthRadiusKm, .pi)
        let chord = 2 * sin(θ / 2) * (1 + 1e-9) + 1e-12
        var best: (population: UInt32, d2: Double, index: Int)?
        within(range, depth: 0, query: Self.unitVector(position), limit: chord * chord, global: slot == nil) { k, d2 in
            let population = Self.u32(bytes, sections.records + k * PlaceIndexFormat.recordBytes + 12)
            if let b = best, (population, -d2) <= (b.population, -b.d2) { return }
            best = (population, d2, k)
        }
        guard let best, best.population > nearest.place.population else { return nearest }
        let d = distanceKm(from: position, to: best.index)
        return d <= Self.townReachKm ? answer(best.index, position) : nearest
    }

    /// Every place, in the file's order (by country, then the tree's), for checks and exports.
    public func place(at k: Int) -> Place {
        precondition(k >= 0 && k < count)
        return record(k)
    }

    // MARK: the search

    struct Best {
        var d2: Double
        var id: UInt32 = .max
        var index: Int?
        init(limit: Double) { d2 = limit }
    }

    /// Nearest-neighbour search of the implicit k-d tree on `range` (positions into the file's
    /// places, through the global table when `global`). Ties go to the smaller GeoNames id.
    private func search(_ range: Range<Int>, depth: Int, query q: (Double, Double, Double), best: inout Best, global: Bool) {
        /// The place at position `m` of the range's order measured and kept if nearer: its
        /// offsets from the query, or `nil` for a damaged file's entry that names no place.
        @inline(__always) func consider(_ m: Int) -> (Double, Double, Double)? {
            let k = global ? Int(Self.u32(bytes, sections.global + 4 * m)) : m
            guard k < count else { return nil }
            let p = point(k)
            let d = (q.0 - p.0, q.1 - p.1, q.2 - p.2)
            let d2 = d.0 * d.0 + d.1 * d.1 + d.2 * d.2
            if d2 < best.d2 || (d2 == best.d2 && best.index != nil && id(k) < best.id) {
                best.d2 = d2
                best.id = id(k)
                best.index = k
            }
            return d
        }
        var lo = range.lowerBound, hi = range.upperBound, depth = depth
        while lo < hi {
            if hi - lo <= Self.bucket {
                // A few places: each one, without descending further.
                for m in lo..<hi where consider(m) == nil { return }
                return
            }
            let mid = (lo + hi) / 2
            guard let d = consider(mid) else { return }  // a damaged file: no answer from here down
            let axis = depth % 3
            let diff = axis == 0 ? d.0 : axis == 1 ? d.1 : d.2  // query minus node, on the axis
            let (near, far) = diff < 0 ? (lo..<mid, (mid + 1)..<hi) : ((mid + 1)..<hi, lo..<mid)
            // The near side first, so that the far side is visited only if the best found there
            // still reaches across the splitting plane.
            search(near, depth: depth + 1, query: q, best: &best, global: global)
            guard diff * diff <= best.d2 else { return }
            lo = far.lowerBound
            hi = far.upperBound
            depth += 1
        }
    }

    /// Every place of `range` whose squared chord to the query is at most `limit`, handed to
    /// `visit` with it.
    private func within(
        _ range: Range<Int>, depth: Int, query q: (Double, Double, Double), limit: Double, global: Bool,
        _ visit: (Int, Double) -> Void
    ) {
        var lo = range.lowerBound, hi = range.upperBound, depth = depth
        while lo < hi {
            @inline(__always) func consider(_ m: Int) -> (Double, Double, Double)? {
                let k = global ? Int(Self.u32(bytes, sections.global + 4 * m)) : m
                guard k < count else { return nil }
                let p = point(k)
                let d = (q.0 - p.0, q.1 - p.1, q.2 - p.2)
                let d2 = d.0 * d.0 + d.1 * d.1 + d.2 * d.2
                if d2 <= limit { visit(k, d2) }
                return d
            }
            if hi - lo <= Self.bucket {
                for m in lo..<hi where consider(m) == nil { return }
                return
            }
            let mid = (lo + hi) / 2
            guard let d = consider(mid) else { return }
            let axis = depth % 3
            let diff = axis == 0 ? d.0 : axis == 1 ? d.1 : d.2
            let (near, far) = diff < 0 ? (lo..<mid, (mid + 1)..<hi) : ((mid + 1)..<hi, lo..<mid)
            within(near, depth: depth + 1, query: q, limit: limit, global: global, visit)
            guard diff * diff <= limit else { return }
            lo = far.lowerBound
            hi = far.upperBound
            depth += 1
        }
    }

    /// The size of a range the search scans place by place.
    static let bucket = 8

    private func point(_ k: Int) -> (Double, Double, Double) {
        let at = sections.points + k * PlaceIndexFormat.pointBytes
        return (
            bytes.load(fromByteOffset: at, as: Double.self), bytes.load(fromByteOffset: at + 8, as: Double.self),
            bytes.load(fromByteOffset: at + 16, as: Double.self)
        )
    }

    private func id(_ k: Int) -> UInt32 { Self.u32(bytes, sections.records + k * PlaceIndexFormat.recordBytes + 8) }

    private func coordinate(_ k: Int) -> Coordinate {
        let at = sections.records + k * PlaceIndexFormat.recordBytes
        let lat = Int32(bitPattern: Self.u32(bytes, at)), lon = Int32(bitPattern: Self.u32(bytes, at + 4))
        return Coordinate(latitude: Double(lat) / 1e5, longitude: Double(lon) / 1e5)
    }

    private func record(_ k: Int) -> Place {
        let at = sections.records + k * PlaceIndexFormat.recordBytes
        let lat = Int32(bitPattern: Self.u32(bytes, at)), lon = Int32(bitPattern: Self.u32(bytes, at + 4))
        let name = Int(Self.u32(bytes, sections.stringOffsets + 8 * k))
        let admin1 = Int(Self.u32(bytes, sections.stringOffsets + 8 * k + 4))
        let end = Int(Self.u32(bytes, sections.stringOffsets + 8 * k + 8))
        let text = UnsafeRawBufferPointer(rebasing: bytes[sections.strings..<sections.end])
        // A damaged file's offsets give empty names, never a read outside the strings.
        let ordered = name <= admin1 && admin1 <= end && end <= text.count
        return Place(
            name: ordered ? String(decoding: text[name..<admin1], as: UTF8.self) : "", geonameID: Self.u32(bytes, at + 8),
            population: Self.u32(bytes, at + 12),
            coordinate: Coordinate(latitude: Double(lat) / 1e5, longitude: Double(lon) / 1e5),
            countryISO2: country(of: k), admin1: ordered ? String(decoding: text[admin1..<end], as: UTF8.self) : "")
    }

    private func country(of k: Int) -> String {
        // The last country that starts at or before k (the starts rise; see init).
        var lo = 0, hi = starts.count
        while lo < hi {
            let m = (lo + hi) / 2
            if Int(starts[m].start) <= k { lo = m + 1 } else { hi = m }
        }
        return lo > 0 ? starts[lo - 1].code : ""
    }

    private func answer(_ k: Int, _ position: Coordinate) -> NearestPlace {
        NearestPlace(place: record(k), distanceKm: distanceKm(from: position, to: k))
    }

    // MARK: helpers

    /// The resolver's unit vector (``CountryResolver/unitVector(_:)``), as a tuple the search indexes by axis.
    static func unitVector(_ c: Coordinate) -> (Double, Double, Double) {
        let v = CountryResolver.unitVector(c)
        return (v.x, v.y, v.z)
    }

    /// A two-letter code's slot (`AA` 0 … `ZZ` 675), or `nil` for anything else.
    package static func slot(_ iso2: String) -> Int? {
        let u = Array(iso2.utf8)
        guard u.count == 2, (65...90).contains(u[0]), (65...90).contains(u[1]) else { return nil }
        return Int(u[0] - 65) * 26 + Int(u[1] - 65)
    }

    static func u32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
}

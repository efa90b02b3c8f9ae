import GeoNewsBoundaries

/// The resolved columns of a CSV row written from an ``IndexedResolution``: the same bytes as
/// ``ResolvedColumns/appendCSV(_:to:)`` writes from the ``Resolution`` it stands for, copied
/// from texts made once (each country's code, each zone's field, each reason) instead of
/// read out of strings row by row.
final class IndexedColumnText: @unchecked Sendable {
    // Sendable: `text` is written in init and only read after.
    let includesBorderDistance: Bool
    /// The places of the place columns; `nil` leaves them out.
    let places: PlaceIndex?
    /// Per catalogue index: the slot (``PlaceIndex/slot(of:)``) a country's places are sought
    /// in, -1 for none.
    private let placeSlots: [Int]
    /// The regions of the region columns; `nil` leaves them out.
    let regions: RegionIndex?
    /// Per catalogue index: the country's key in `regions` (``RegionIndex/countryKey(iso2:)``),
    /// -1 for a country without regions.
    private let regionKeys: [Int]
    /// Per region index: the code its rows are counted under in the summary (``Region/code``).
    private let regionCodes: [String]
    /// Every text, one after another.
    private let text: UnsafeMutablePointer<UInt8>
    /// Where each text starts and ends in `text`: the countries' codes by catalogue index, then
    /// the zones' fields by index, then the 25 nautical zones', then the four reasons', then,
    /// with regions, each region's three fields (ISO 3166-2 code, GeoNames code, name).
    private let bounds: [(start: Int, count: Int)]
    private let zoneBase: Int, nauticalBase: Int, reasonBase: Int, regionBase: Int
    /// The most bytes ``appendCSV(_:to:)`` writes: every comma, the longest texts, two distances.
    private let rowLimit: Int

    /// The most bytes a place's name takes as a CSV field: a name is at most one line of
    /// `places.tsv.gz` (4 KB, ``PlaceIndexBuild``), every byte a quote doubled, and two quotes.
    static let placeNameLimit = 2 * 4096 + 2

    init(catalogue: Catalogue, zoneIDs: [String], includesBorderDistance: Bool, places: PlaceIndex? = nil, regions: RegionIndex? = nil) {
        self.includesBorderDistance = includesBorderDistance
        self.places = places
        self.regions = regions
        placeSlots = catalogue.countries.map { PlaceIndex.slot(of: $0) ?? -1 }
        regionKeys = catalogue.countries.map { c in c.iso2.flatMap { regions?.countryKey(iso2: $0) } ?? -1 }
        let reasons: [SuggestionReason] = [.inside, .sovereign, .offshore, .nearestMarker]
        var fields: [[UInt8]] = catalogue.countries.map { Array(($0.iso2 ?? "").utf8) }
        zoneBase = fields.count
        for zone in zoneIDs { fields.append(Self.csvField(zone)) }
        nauticalBase = fields.count
        for code in IndexedResolution.nauticalZones.reversed() {
            fields.append(Self.csvField(IndexedResolution.nauticalZoneID(code)))
        }
        reasonBase = fields.count
        for reason in reasons { fields.append(Array(reason.rawValue.utf8)) }
        // Each region's columns as ResolvedColumns writes them from its answer.
        regionBase = fields.count
        var longestRegion = 0
        var regionCodes: [String] = []
        if let regions {
            for k in 0..<regions.regionCount {
                let region = regions.region(at: k)
                regionCodes.append(region.code)
                let iso = OutputChunk(capacity: 16), geonames = OutputChunk(capacity: 16), name = OutputChunk(capacity: 64)
                ResolvedColumns.appendCode(region.iso3166Code, json: false, to: iso)
                ResolvedColumns.appendCode(region.geonamesAdmin1, json: false, to: geonames)
                CSVText.appendField(region.name, to: name)
                let three = [Array(iso.bytes), Array(geonames.bytes), Array(name.bytes)]
                fields += three
                longestRegion = max(longestRegion, three.map(\.count).reduce(0, +))
            }
        }
        self.regionCodes = regionCodes
        var bounds: [(start: Int, count: Int)] = []
        var offset = 0
        for f in fields {
            bounds.append((offset, f.count))
            offset += f.count
        }
        self.bounds = bounds
        let longest = fields[..<regionBase].map(\.count).max() ?? 0
        rowLimit =
            8 + 4 * longest + 2 * OutputChunk.kilometresLimit + (regions == nil ? 0 : 3 + longestRegion)
            + (places == nil ? 0 : 3 + Self.placeNameLimit + 10 + OutputChunk.kilometresLimit)
        text = .allocate(capacity: max(1, offset))
        for (f, b) in zip(fields, bounds) { f.withUnsafeBufferPointer { (text + b.start).update(from: $0.baseAddress!, count: $0.count) } }
        precondition(reasons.enumerated().allSatisfy { Self.reasonOrdinal($0.element) == $0.offset })
    }

    deinit { text.deallocate() }

    /// Adds `counts` (rows per region index) to the chunk's counts by region, which the summary
    /// names by code as ``ResolvedColumns`` counts each row it writes.
    func countRegions(_ counts: UnsafeBufferPointer<Int>, in out: OutputChunk) {
        guard counts.contains(where: { $0 > 0 }) else { return }
        out.addRegionRows(counts, codes: regionCodes)
    }

    /// `,FR,FR,inside,0.000,Europe/Paris,` (the empty error last), as ``ResolvedColumns`` writes
    /// the same answer.
    @inline(__always)
    func appendCSV(_ r: IndexedResolution, to out: OutputChunk) {
        var region = -1
        out.append(upTo: rowLimit) { start in write(r, at: start, region: &region) - start }
    }

    /// A whole row: the record's bytes, `missingFields` commas (so that the columns land under
    /// their names), ``appendCSV(_:to:)``'s columns and a line feed, with one check for room.
    /// Returns the index of the region written, -1 for none.
    @inline(__always)
    @discardableResult
    func appendRow(_ record: UnsafeBufferPointer<UInt8>, missingFields: Int, _ r: IndexedResolution, to out: OutputChunk) -> Int {
        var region = -1
        out.append(upTo: record.count + max(0, missingFields) + rowLimit + 1) { start in
            var p = start
            if let bytes = record.baseAddress { OutputChunk.copy(from: bytes, to: p, count: record.count) }
            p += record.count
            var missing = missingFields
            while missing > 0 {
                p.pointee = UInt8(ascii: ",")
                p += 1
                missing -= 1
            }
            p = write(r, at: p, region: &region)
            p.pointee = UInt8(ascii: "\n")
            return p + 1 - start
        }
        return region
    }

    /// Writes the columns at `start` and returns where they end; `region` is set to the index of
    /// the region written.
    @inline(__always)
    private func write(_ r: IndexedResolution, at start: UnsafeMutablePointer<UInt8>, region: inout Int) -> UnsafeMutablePointer<UInt8> {
        do {
            var p = start
            @inline(__always) func text(_ entry: Int) {
                let b = bounds[entry]
                OutputChunk.copy(from: self.text + b.start, to: p, count: b.count)
                p += b.count
            }
            @inline(__always) func comma() {
                p.pointee = UInt8(ascii: ",")
                p += 1
            }
            comma()
            if r.country >= 0 { text(Int(r.country)) }
            comma()
            text(Int(r.suggested))
            comma()
            text(reasonBase &+ Self.reasonOrdinal(r.reason))
            comma()
            p += OutputChunk.writeKilometres(r.distanceKm, to: p)
            comma()
            text(r.zone >= 0 ? zoneBase &+ Int(r.zone) : nauticalBase &+ Int(-1 &- r.zone))
            if includesBorderDistance {
                comma()
                if let km = r.borderDistanceKm { p += OutputChunk.writeKilometres(km, to: p) }
            }
            if let regions {
                // As ``RegionIndex/region(for:)``: the region in the country answered, none at sea.
                if r.country >= 0, regionKeys[Int(r.country)] >= 0,
                    let k = regions.regionIndex(at: r.position, countryKey: regionKeys[Int(r.country)])
                {
                    region = k
                    comma()
                    text(regionBase &+ 3 &* k)
                    comma()
                    text(regionBase &+ 3 &* k &+ 1)
                    comma()
                    text(regionBase &+ 3 &* k &+ 2)
                } else {
                    comma()
                    comma()
                    comma()
                }
            }
            if let places {
                // As ``PlaceIndex/place(for:)``: the country's nearest, or at sea the nearest within reach.
                var found: (index: Int, km: Double)?
                if r.country >= 0 {
                    if let k = places.nearestIndex(to: r.position, inCountrySlot: placeSlots[Int(r.country)]) {
                        found = (k, places.distanceKm(from: r.position, to: k))
                    }
                } else {
                    found = places.nearestIndex(to: r.position, withinKm: PlaceIndex.openSeaReachKm)
                }
                comma()
                if let found {
                    // Clamped: a damaged places.bin could name more bytes than a line holds.
                    let name = places.nameBytes(ofPlaceAt: found.index)
                    p = Self.writeCSVField(UnsafeRawBufferPointer(rebasing: name.prefix(Self.placeNameLimit / 2 - 1)), at: p)
                }
                comma()
                if let found { p = Self.writeDecimal(places.geonameID(ofPlaceAt: found.index), at: p) }
                comma()
                if let found { p += OutputChunk.writeKilometres(found.km, to: p) }
            }
            comma()
            return p
        }
    }

    /// `bytes` as one CSV field, quoted only when they hold a comma, quote or line break (as
    /// ``CSVText/appendField(_:to:)``); at most ``placeNameLimit`` bytes for a place's name.
    private static func writeCSVField(_ bytes: UnsafeRawBufferPointer, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
    {
        var p = start
        let quoted = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        if quoted {
            p.pointee = UInt8(ascii: "\"")
            p += 1
        }
        for c in bytes {
            if c == UInt8(ascii: "\"") {
                p.pointee = c
                p += 1
            }
            p.pointee = c
            p += 1
        }
        if quoted {
            p.pointee = UInt8(ascii: "\"")
            p += 1
        }
        return p
    }

    /// A 32-bit count in decimal (at most 10 digits).
    private static func writeDecimal(_ value: UInt32, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var v = value, n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                n += 1
            } while v > 0
            for i in 0..<n { start[i] = d[n - 1 - i] }
        }
        return start + n
    }

    @inline(__always)
    private static func reasonOrdinal(_ reason: SuggestionReason) -> Int {
        switch reason {
        case .inside: 0
        case .sovereign: 1
        case .offshore: 2
        case .nearestMarker: 3
        }
    }

    /// A zone id as ``CSVText`` writes it: quoted only when it holds a comma, quote or break.
    private static func csvField(_ text: String) -> [UInt8] {
        let out = OutputChunk(capacity: 64)
        CSVText.appendField(text, to: out)
        return Array(out.bytes)
    }
}

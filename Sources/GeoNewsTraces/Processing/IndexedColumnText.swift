import GeoNewsBoundaries

/// The resolved columns of a CSV row written from an ``IndexedResolution``: the same bytes as
/// ``ResolvedColumns/appendCSV(_:to:)`` writes from the ``Resolution`` it stands for, copied
/// from texts made once (each country's code, each zone's field, each reason) instead of
/// read out of strings row by row.
final class IndexedColumnText: @unchecked Sendable {
    // Sendable: `text` is written in init and only read after.
    let includesBorderDistance: Bool
    /// Every text, one after another.
    private let text: UnsafeMutablePointer<UInt8>
    /// Where each text starts and ends in `text`: the countries' codes by catalogue index, then
    /// the zones' fields by index, then the 25 nautical zones', then the four reasons'.
    private let bounds: [(start: Int, count: Int)]
    private let zoneBase: Int, nauticalBase: Int, reasonBase: Int

    init(catalogue: Catalogue, zoneIDs: [String], includesBorderDistance: Bool) {
        self.includesBorderDistance = includesBorderDistance
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
        var bounds: [(start: Int, count: Int)] = []
        var offset = 0
        for f in fields {
            bounds.append((offset, f.count))
            offset += f.count
        }
        self.bounds = bounds
        text = .allocate(capacity: max(1, offset))
        for (f, b) in zip(fields, bounds) { f.withUnsafeBufferPointer { (text + b.start).update(from: $0.baseAddress!, count: $0.count) } }
        precondition(reasons.enumerated().allSatisfy { Self.reasonOrdinal($0.element) == $0.offset })
    }

    deinit { text.deallocate() }

    /// `,FR,FR,inside,0.000,Europe/Paris,` (the empty error last), as ``ResolvedColumns`` writes
    /// the same answer.
    @inline(__always)
    func appendCSV(_ r: IndexedResolution, to out: OutputChunk) {
        out.append(UInt8(ascii: ","))
        if r.country >= 0 { append(Int(r.country), to: out) }
        out.append(UInt8(ascii: ","))
        append(Int(r.suggested), to: out)
        out.append(UInt8(ascii: ","))
        append(reasonBase &+ Self.reasonOrdinal(r.reason), to: out)
        out.append(UInt8(ascii: ","))
        out.appendKilometres(r.distanceKm)
        out.append(UInt8(ascii: ","))
        append(r.zone >= 0 ? zoneBase &+ Int(r.zone) : nauticalBase &+ Int(-1 &- r.zone), to: out)
        if includesBorderDistance {
            out.append(UInt8(ascii: ","))
            if let km = r.borderDistanceKm { out.appendKilometres(km) }
        }
        out.append(UInt8(ascii: ","))
    }

    @inline(__always)
    private func append(_ entry: Int, to out: OutputChunk) {
        let b = bounds[entry]
        out.append(text + b.start, count: b.count)
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

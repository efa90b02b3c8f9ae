import GeoNewsBoundaries
import GeoNewsGeodesy

/// Consecutive fixes of one trace inside one country (or at sea), as found within one chunk.
/// The writer joins runs across chunks into ``CountrySegment``s.
struct TraceRun: Sendable {
    var traceID: String
    /// ISO alpha-2 (or catalogue id when a feature has none); `nil` at sea.
    var country: String?
    var fixes: Int
    /// Great-circle kilometres between consecutive fixes of this run.
    var distanceKm: Double
    var first: Coordinate
    var last: Coordinate
    var firstTime: String?
    var lastTime: String?
    /// The IANA zones of the first and last fix.
    var firstZone: String?
    var lastZone: String?
}

/// What a worker learnt from one chunk besides its output bytes.
struct ChunkTally: Sendable {
    var records = 0
    var resolved = 0
    var errors = 0
    var atSea = 0
    var countries: [String: Int] = [:]
    var runs: [TraceRun] = []

    private let followsTraces: Bool
    // Consecutive fixes are usually in the same country: count them before touching the dictionary.
    private var pendingCountry: Country?
    private var pendingCount = 0
    // Counts by catalogue entry until the chunk is done: random positions change country at
    // almost every row, and hashing an object's identity costs far less than hashing its code.
    private var byCountry: [ObjectIdentifier: (country: Country, count: Int)] = [:]
    /// Counts of fixes resolved by index (``countResolved(byIndex:atSea:)``), by catalogue
    /// index; empty until the first. The writer adds them up across chunks and names them
    /// once, at the end of the run, so that a worker never hashes a country's code.
    private(set) var byIndex: [Int] = []
    /// The catalogue ``byIndex`` points into, set by ``finish(catalogue:)``.
    private(set) var indexCatalogue: Catalogue?
    // The run being extended.
    private var runOpen = false
    private var runTrace: [UInt8] = []
    private var run = TraceRun(
        traceID: "", country: nil, fixes: 0, distanceKm: 0,
        first: Coordinate(latitude: 0, longitude: 0),
        last: Coordinate(latitude: 0, longitude: 0))
    private var runLastTime: [UInt8] = []
    private var runHasLastTime = false

    init(followsTraces: Bool) { self.followsTraces = followsTraces }

    /// The key a country is counted under: ISO alpha-2, or the catalogue id without one.
    @inline(__always)
    static func key(_ country: Country?) -> String? {
        guard let country else { return nil }
        return country.iso2 ?? country.id
    }

    mutating func countError() {
        records += 1
        errors += 1
    }

    /// Counts a resolved fix; with trace following on, extends or starts a run, unless the
    /// record is no fix of a journey (`inJourney` false: it has neither a time nor a trace id).
    mutating func countResolved(
        _ r: Resolution, trace: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>?, inJourney: Bool = true
    ) {
        records += 1
        resolved += 1
        if let country = r.country {
            if country === pendingCountry {
                pendingCount += 1
            } else {
                flushCountry()
                pendingCountry = country
                pendingCount = 1
            }
        } else {
            atSea += 1
        }
        if followsTraces, inJourney {
            let time = time.flatMap { $0.isEmpty ? nil : $0 }
            follow(r.position, country: Self.key(r.country), zone: r.timeZone, trace: trace, time: time)
        }
    }

    /// Counts fixes resolved by index, outside any journey (plain CSV rows): `counts[i]` of
    /// the country at catalogue index `i` (one entry per country), and `atSea` more.
    /// ``finish(catalogue:)`` says which catalogue they count in.
    mutating func countResolved(byIndex counts: UnsafeBufferPointer<Int>, atSea: Int) {
        if byIndex.isEmpty { byIndex = [Int](repeating: 0, count: counts.count) }
        precondition(byIndex.count == counts.count, "one count per country of one catalogue")
        var fixes = atSea
        for (i, n) in counts.enumerated() {
            byIndex[i] += n
            fixes += n
        }
        records += fixes
        resolved += fixes
        self.atSea += atSea
    }

    private mutating func flushCountry() {
        if let pendingCountry, pendingCount > 0 {
            byCountry[ObjectIdentifier(pendingCountry), default: (pendingCountry, 0)].count += pendingCount
        }
        pendingCount = 0
    }

    private mutating func follow(
        _ p: Coordinate, country: String?, zone: String?, trace: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>?
    ) {
        if runOpen, run.country == country, runTrace.elementsEqual(trace) {
            run.fixes += 1
            run.distanceKm += GreatCircle.distance(from: run.last, to: p)
            run.last = p
            run.lastZone = zone
            setLastTime(time)
            return
        }
        closeRun()
        runOpen = true
        runTrace.removeAll(keepingCapacity: true)
        runTrace.append(contentsOf: trace)
        let firstTime = time.map { String(decoding: $0, as: UTF8.self) }
        run = TraceRun(
            traceID: String(decoding: trace, as: UTF8.self), country: country, fixes: 1,
            distanceKm: 0, first: p, last: p, firstTime: firstTime, lastTime: nil,
            firstZone: zone, lastZone: zone)
        setLastTime(time)
    }

    private mutating func setLastTime(_ time: UnsafeBufferPointer<UInt8>?) {
        runLastTime.removeAll(keepingCapacity: true)
        if let time { runLastTime.append(contentsOf: time) }
        runHasLastTime = time != nil
    }

    private mutating func closeRun() {
        guard runOpen else { return }
        run.lastTime = runHasLastTime ? String(decoding: runLastTime, as: UTF8.self) : nil
        runs.append(run)
        runOpen = false
    }

    /// Call once when the chunk is done, with the catalogue that the fixes counted by index
    /// point into, if any were.
    mutating func finish(catalogue: Catalogue? = nil) {
        flushCountry()
        pendingCountry = nil
        // Entries that share a code (Somaliland and Somalia, SO) add up under it.
        for (country, count) in byCountry.values { countries[country.iso2 ?? country.id, default: 0] += count }
        byCountry = [:]
        precondition(byIndex.isEmpty || catalogue != nil, "fixes counted by index need the catalogue to be named")
        if !byIndex.isEmpty { indexCatalogue = catalogue }
        closeRun()
    }
}

/// A chunk's output bytes and what was counted while making them.
struct ProcessedChunk: @unchecked Sendable {
    var output: OutputChunk
    var tally: ChunkTally
    /// Input bytes the chunk covered, for progress.
    var inputBytes = 0
}

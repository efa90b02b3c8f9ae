/// What a batch run read, resolved and found along its traces.
public struct BatchSummary: Sendable, Codable, Equatable {
    /// Records read: resolved plus in error. Equals the rows written.
    public var recordsRead = 0
    public var recordsResolved = 0
    public var recordsInError = 0
    /// Resolved fixes per country, keyed by ISO alpha-2 (catalogue id for the few without one).
    public var countries: [String: Int] = [:]
    /// Resolved fixes by region, keyed by the region's ISO 3166-2 code (GeoNames' admin1 code
    /// where it has none); empty unless the region columns were asked for.
    public var regions: [String: Int] = [:]
    /// Resolved fixes in no country's polygon.
    public var atSea = 0
    /// Wall-clock seconds of the run.
    public var seconds = 0.0
    /// `recordsRead / seconds`.
    public var pointsPerSecond = 0.0
    /// Traces in order of first appearance; empty unless traces were followed.
    public var traces: [TraceSummary] = []

    public init() {}
}

/// The journey of one trace through countries.
public struct TraceSummary: Sendable, Codable, Equatable {
    /// The `trace_id` value (GPX: track or route name); empty for an input without trace ids.
    public var traceID: String
    /// Maximal runs of consecutive fixes in one country (or at sea), in order.
    public var segments: [CountrySegment]
    /// Every change of country between two consecutive fixes.
    public var crossings: [BorderCrossing]

    public init(traceID: String, segments: [CountrySegment] = [], crossings: [BorderCrossing] = []) {
        self.traceID = traceID
        self.segments = segments
        self.crossings = crossings
    }
}

/// Consecutive fixes of a trace inside one country.
public struct CountrySegment: Sendable, Codable, Equatable {
    /// ISO alpha-2 (catalogue id without one); `nil` at sea.
    public var country: String?
    /// Time of the first and last fix, as written in the input.
    public var firstTime: String?
    public var lastTime: String?
    public var fixes: Int
    /// Great-circle kilometres between consecutive fixes of the segment.
    public var distanceKm: Double
    /// The IANA zones of the first and last fix (a country may span several).
    public var firstTimeZone: String?
    public var lastTimeZone: String?
    /// ``firstTime`` and ``lastTime`` in ISO 8601 at the offset their fix's zone had then
    /// (`2024-05-01T10:30:00+02:00`); `nil` when the time does not parse or the zone is unknown.
    public var firstLocalTime: String?
    public var lastLocalTime: String?

    public init(
        country: String?, firstTime: String?, lastTime: String?, fixes: Int, distanceKm: Double,
        firstTimeZone: String? = nil, lastTimeZone: String? = nil, firstLocalTime: String? = nil, lastLocalTime: String? = nil
    ) {
        self.country = country
        self.firstTime = firstTime
        self.lastTime = lastTime
        self.fixes = fixes
        self.distanceKm = distanceKm
        self.firstTimeZone = firstTimeZone
        self.lastTimeZone = lastTimeZone
        self.firstLocalTime = firstLocalTime
        self.lastLocalTime = lastLocalTime
    }
}

/// A change of country between two consecutive fixes of a trace.
public struct BorderCrossing: Sendable, Codable, Equatable {
    /// ISO alpha-2 codes; `nil` for the sea.
    public var from: String?
    public var to: String?
    /// The midpoint of the two fixes' times (ISO 8601 UTC) when both parse, else the time of the
    /// first fix on the new side as written; `nil` without times.
    public var time: String?
    /// The great-circle midpoint of the two fixes, degrees.
    public var latitude: Double
    public var longitude: Double
    /// The IANA zone of the first fix on the new side.
    public var timeZone: String?
    /// ``time`` in ISO 8601 at the offset ``timeZone`` had then; `nil` when the time does not
    /// parse or the zone is unknown.
    public var localTime: String?

    public init(
        from: String?, to: String?, time: String?, latitude: Double, longitude: Double,
        timeZone: String? = nil, localTime: String? = nil
    ) {
        self.from = from
        self.to = to
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.localTime = localTime
    }
}

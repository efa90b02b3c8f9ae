import GeoNewsBoundaries
import GeoNewsTimeZones

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CSV column or JSON key chosen by the user.
public enum ColumnSelector: Sendable, Hashable, CustomStringConvertible {
    /// A header name or JSON key, matched ignoring ASCII case.
    case name(String)
    /// A 1-based column position (CSV only).
    case position(Int)

    /// The furthest column a position may name: rows without a header are written as wide
    /// as the furthest column named.
    public static let highestPosition = 10_000

    /// Reads `"3"` as position 3 and anything else as a name; a position beyond
    /// ``highestPosition`` is refused when the CSV layout is read.
    public init(_ text: String) {
        if let n = Int(text), n >= 1 { self = .position(n) } else { self = .name(text) }
    }

    public var description: String {
        switch self {
        case .name(let n): return "\"\(n)\""
        case .position(let p): return "column \(p)"
        }
    }
}

/// How a batch run reads, resolves and writes. Every field has a default that suits a file
/// with a header naming its coordinate columns.
public struct BatchResolveOptions: Sendable {
    /// Input format; `nil` chooses by file extension, then by the first bytes.
    public var inputFormat: RecordFormat?
    /// Output format; `nil` writes the input's format (CSV for GPX input).
    public var outputFormat: RecordFormat?
    /// Latitude column or key; `nil` looks for `lat` or `latitude` (or column 1 without header).
    public var latitudeColumn: ColumnSelector?
    /// Longitude column or key; `nil` looks for `lon`, `lng`, `long` or `longitude` (or column 2
    /// without header).
    public var longitudeColumn: ColumnSelector?
    /// Time column or key (ISO 8601 or epoch seconds); `nil` looks for `time`, `timestamp`.
    public var timeColumn: ColumnSelector?
    /// Trace id column or key; `nil` looks for `trace_id`. Without one, an input is one trace.
    public var traceColumn: ColumnSelector?
    /// Whether the first CSV record is a header. Without one, no header is written either,
    /// which is what a stage of `RDD.pipe()` or Hadoop streaming needs.
    public var hasHeader = true
    /// The worker counts accepted (`--workers`): beyond a thousand threads only memory grows.
    public static let workerCounts = 1...1024
    /// Threads resolving chunks in parallel, within ``workerCounts``; defaults to the number of
    /// online cores.
    public var workerCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Target bytes per chunk handed to a worker.
    public var chunkBytes = 512 * 1024
    /// Chunks alive at once (read, resolving, or waiting to be written): with ``chunkBytes``
    /// this bounds memory whatever the input size.
    public var chunksInFlight = 0
    /// The longest record accepted, in bytes; longer ones become error rows. This bounds memory
    /// when a quote is never closed.
    public var maxRecordBytes = 1 << 20
    /// Whether to follow traces for segments and border crossings (costs a great-circle
    /// distance per fix).
    public var followsTraces = false
    /// Whether every row gains a `border_distance_km` column (before `error`): kilometres from
    /// the position to the nearest edge of its country's area, empty or `null` at sea. Off by
    /// default, so rows keep the columns they had; `geonews resolve --border-distance` sets it.
    public var includesBorderDistance = false
    /// When set, every row gains `place_name`, `place_geonameid` and `place_distance_km` (after
    /// `border_distance_km`, before `error`): the nearest populated place of its resolution
    /// (``PlaceIndex/place(for:)``), all three empty or `null` where there is none. `nil` by
    /// default; `geonews resolve --place` sets it.
    public var places: PlaceIndex?
    /// When set, every row gains `region_iso3166_2`, `region_geonames` and `region_name` (after
    /// `border_distance_km`, before the place columns): the region of its resolution
    /// (``RegionIndex/region(for:)``), all three empty or `null` with no country, the ISO code
    /// alone where the region has none. `nil` by default; `geonews resolve --region` sets it.
    public var regions: RegionIndex?
    /// The rules that give the trace summary its local times; `nil` uses
    /// ``/GeoNewsTimeZones/TimeZoneRules/located``, loaded only when a followed fix has a time zone.
    public var zoneRules: TimeZoneRules?

    public init() {}

    var effectiveChunksInFlight: Int { chunksInFlight > 0 ? chunksInFlight : 4 * workerCount + 2 }
}

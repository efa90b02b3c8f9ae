import GeoNewsGeodesy
import GeoNewsTraces

/// Points read from a file or an upload to be clustered: a position, an id and an optional
/// name each, in input order.
///
/// Two formats, read by the same streaming readers as batch resolution, so neither a file
/// nor an upload is held whole in memory (only the points are):
/// - **CSV** with a header naming `lat`/`latitude` and `lon`/`lng`/`long`/`longitude` columns
///   (any case), and optionally `id` and `name`; or with no header and latitude, longitude
///   first. RFC 4180 quoting; blank lines and lines starting with `#` are skipped.
/// - **GeoJSON**: a FeatureCollection (or a lone Feature) of Points; the id is the feature's
///   `id`, else its `properties.id`; the name is `properties.name`.
///
/// Unlike batch resolution, one bad point fails the whole read, naming its line or feature:
/// a clustering over silently fewer points would mislead.
public struct PointFile: Sendable {
    /// Positions in degrees.
    public var coordinates: [Coordinate] = []
    /// One id per point; the row or feature number (from 0) where the input gives none.
    public var ids: [String] = []
    /// One display name per point, `nil` where the input gives none.
    public var names: [String?] = []

    public init() {}

    /// The formats a point file may have.
    public enum Format: Sendable, Hashable {
        case csv
        case geoJSON
    }

    /// Reads a file, standard input or bytes in memory. The format is GeoJSON for a name
    /// ending in `.json` or `.geojson`, or for input whose first character (after a byte
    /// order mark and white space) is `{`; otherwise CSV. `format` overrides that choice.
    ///
    /// - Throws: ``PointFileError``.
    public static func read(_ input: BatchInput, format: Format? = nil) throws(PointFileError) -> PointFile {
        let source: ByteSource
        do { source = try ByteSource(input) } catch { throw PointFileError(error) }
        return try read(source, format: format)
    }

    /// Reads an input that arrives in chunks, such as an HTTP upload body, without writing it
    /// anywhere: `chunks` is iterated once, and only the chunk being read is held. `name` is
    /// used in messages and for the format, as in ``read(_:format:)``.
    ///
    /// - Throws: ``PointFileError``; an error thrown by the sequence's iterator becomes
    ///   ``PointFileError/unreadable(name:reason:)``.
    public static func read<Chunks: Sequence>(
        chunks: Chunks, name: String, format: Format? = nil
    ) throws(PointFileError) -> PointFile where Chunks.Element == [UInt8] {
        var iterator = chunks.makeIterator()
        return try read(ByteSource(name: name, nextChunk: { iterator.next() }), format: format)
    }

    private static func read(_ source: ByteSource, format: Format?) throws(PointFileError) -> PointFile {
        do throws(BatchResolveError) {
            var chosen = format
            if chosen == nil { chosen = try detectFormat(source) }
            var reader = PointFileReader(name: source.name)
            switch chosen! {
            case .csv: try reader.readCSV(source)
            case .geoJSON: try reader.readGeoJSON(source)
            }
            return reader.points
        } catch {
            throw PointFileError(error)
        }
    }

    private static func detectFormat(_ source: ByteSource) throws(BatchResolveError) -> Format {
        let lower = source.name.lowercased()
        if lower.hasSuffix(".json") || lower.hasSuffix(".geojson") { return .geoJSON }
        let head = try source.peek(256)
        var i = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        return i < head.count && head[i] == UInt8(ascii: "{") ? .geoJSON : .csv
    }
}

/// Why a point file could not be read. Messages name the input and, for a bad point, its
/// line (CSV) or feature number (GeoJSON, from 0).
public enum PointFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input cannot be opened or read (a missing file, a directory, a read error).
    case unreadable(name: String, reason: String)
    /// The content is not a point file of its format, or a point in it is bad.
    case invalid(String)

    init(_ error: BatchResolveError) {
        switch error {
        case .inputUnreadable(let path, let reason), .readFailed(let path, let reason):
            self = .unreadable(name: path, reason: reason)
        default:
            self = .invalid(error.description)
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let name, let reason): return "cannot open input '\(name)': \(reason)"
        case .invalid(let message): return message
        }
    }
}

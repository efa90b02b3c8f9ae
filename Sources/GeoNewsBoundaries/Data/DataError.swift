/// Why the data under `Data/` could not be used. Never a wrong answer: a stale or damaged file
/// stops the load with one of these.
public enum DataError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(searched: [String])
    case unreadable(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case stale(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let searched):
            return "GeoNews data not found (looked in \(searched.joined(separator: ", "))); set GEONEWS_DATA to the Data directory"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .corrupt(let path, let reason):
            return "\(path) is damaged: \(reason); rebuild it with Scripts/build_data.py and `geonews-index`"
        case .stale(let path, let reason):
            return "\(path) is out of date: \(reason); rebuild it with `swift run -c release geonews-index`"
        }
    }
}

import GeoNewsGeodesy

/// Why a ``ClusterIndex`` could not be built or could not answer.
public enum ClusterIndexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option is out of range.
    case invalidOption(name: String, value: String, expected: String)
    /// The point at `index` of the input is not a position.
    case invalidPoint(index: Int, reason: CoordinateError)
    /// More points than a 32-bit node table can number.
    case tooManyPoints(Int)
    /// No cluster with this id exists in this index.
    case unknownCluster(ClusterID)
    /// A query argument (zoom, bounds, tile address, limit) is not usable.
    case invalidQuery(name: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .invalidOption(let name, let value, let expected):
            return "option \(name) = \(value) is invalid; expected \(expected)"
        case .invalidPoint(let index, let reason):
            return "point \(index): \(reason)"
        case .tooManyPoints(let count):
            return "\(count) points are more than the \(ClusterIndex.maximumPointCount) an index can hold"
        case .unknownCluster(let id):
            return "no cluster with id \(id) (ordinal \(id.ordinal), zoom \(id.zoom)) in this index"
        case .invalidQuery(let name, let value, let expected):
            return "\(name) \(value) is invalid; expected \(expected)"
        }
    }
}

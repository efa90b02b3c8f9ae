import GeoNews
import Hummingbird
import HummingbirdCore

/// A request's query parameters, parsed once, with 400 problems naming the parameter and its
/// value. Hummingbird parses the whole query string again on every `uri.queryParameters`, so
/// a route that reads several parameters takes one of these.
struct QueryParameters {
    private let values: FlatDictionary<Substring, Substring>
    private let uri: URI

    init(_ request: Request) { self.init(request.uri) }

    init(_ uri: URI) {
        self.uri = uri
        values = uri.queryParameters
    }

    /// The query string as sent, percent-encoding and all: two requests with the same one ask
    /// the same thing (``QueryAnswerMemo``'s key). A slice of the request's target, not a copy.
    var raw: Substring {
        let target = uri.string
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return "" }
        return target[target.utf8.index(after: mark)...]
    }

    /// The parameter's value, `nil` when absent; an empty value counts as absent.
    func value(_ name: String) -> String? {
        guard let value = values[name[...]].map(String.init), !value.isEmpty else { return nil }
        return value
    }

    func required(_ name: String, _ hint: String = "") throws -> String {
        guard let value = value(name) else { throw Problem.missing(name, hint) }
        return value
    }

    /// An integer parameter within `range`, or `fallback` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw Problem.badValue(name, "'\(text)' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// The position of `lat` and `lon`, both required, or 400 naming the one that is missing or
    /// out of range.
    func coordinate() throws -> Coordinate {
        let latitude = try required("lat", "degrees, -90…90")
        let longitude = try required("lon", "degrees, -180…180")
        do throws(CoordinateInputError) {
            return try Coordinate(parsingLatitude: latitude, longitude: longitude)
        } catch {
            throw Problem.badValue(error.description.hasPrefix("latitude") ? "lat" : "lon", error.description)
        }
    }

    /// A boolean parameter (`true`/`false`/`1`/`0`/`yes`/`no`), or `fallback` when absent.
    func boolean(_ name: String, default fallback: Bool) throws -> Bool {
        guard let text = value(name)?.lowercased() else { return fallback }
        switch text {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw Problem.badValue(name, "'\(text)' is not true or false")
        }
    }
}

/// One parameter at a time, for routes that read one or two.
extension Request {
    var parameters: QueryParameters { QueryParameters(self) }

    func query(_ name: String) -> String? { parameters.value(name) }

    func requiredQuery(_ name: String, _ hint: String = "") throws -> String { try parameters.required(name, hint) }

    func integerQuery(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        try parameters.integer(name, in: range, default: fallback)
    }

    func booleanQuery(_ name: String, default fallback: Bool) throws -> Bool { try parameters.boolean(name, default: fallback) }
}

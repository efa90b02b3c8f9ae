import Hummingbird

/// Reading query parameters, with 400 problems naming the parameter and its value.
extension Request {
    /// The parameter's value, `nil` when absent; an empty value counts as absent.
    func query(_ name: String) -> String? {
        guard let value = uri.queryParameters[name[...]].map(String.init), !value.isEmpty else { return nil }
        return value
    }

    func requiredQuery(_ name: String, _ hint: String = "") throws -> String {
        guard let value = query(name) else { throw Problem.missing(name, hint) }
        return value
    }

    /// An integer parameter within `range`, or `fallback` when absent.
    func integerQuery(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        guard let text = query(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw Problem.badValue(name, "'\(text)' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// A boolean parameter (`true`/`false`/`1`/`0`), or `fallback` when absent.
    func booleanQuery(_ name: String, default fallback: Bool) throws -> Bool {
        guard let text = query(name)?.lowercased() else { return fallback }
        switch text {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw Problem.badValue(name, "'\(text)' is not true or false")
        }
    }
}

import Foundation

/// The error codes NewsAPI puts in `{"status":"error","code":…,"message":…}` bodies.
public enum NewsAPIErrorCode: Sendable, Hashable {
    case apiKeyDisabled, apiKeyExhausted, apiKeyInvalid, apiKeyMissing
    case parameterInvalid, parametersMissing, rateLimited, sourcesTooMany, sourceDoesNotExist
    case unexpectedError, maximumResultsReached
    /// A code this version does not know, kept verbatim.
    case other(String)

    private static let known: [String: NewsAPIErrorCode] = [
        "apiKeyDisabled": .apiKeyDisabled, "apiKeyExhausted": .apiKeyExhausted,
        "apiKeyInvalid": .apiKeyInvalid, "apiKeyMissing": .apiKeyMissing,
        "parameterInvalid": .parameterInvalid, "parametersMissing": .parametersMissing,
        "rateLimited": .rateLimited, "sourcesTooMany": .sourcesTooMany,
        "sourceDoesNotExist": .sourceDoesNotExist, "unexpectedError": .unexpectedError,
        "maximumResultsReached": .maximumResultsReached,
    ]

    public init(code: String) { self = Self.known[code] ?? .other(code) }

    /// The code as NewsAPI spells it.
    public var name: String {
        if case .other(let raw) = self { return raw }
        return Self.known.first { $0.value == self }!.key
    }

    /// What the user can do about it.
    var advice: String {
        switch self {
        case .apiKeyMissing: return "set NEWSAPI_KEY or \"newsapiKey\" in config.json"
        case .apiKeyInvalid: return "check NEWSAPI_KEY against the key shown at newsapi.org/account"
        case .apiKeyDisabled: return "the key was disabled; re-enable it or create a new one at newsapi.org"
        case .apiKeyExhausted: return "the key has no requests left; wait for the daily reset or upgrade the plan"
        case .parameterInvalid: return "a request parameter was not accepted; check --country, --category and --language"
        case .parametersMissing: return "the request lacked a required parameter"
        case .rateLimited: return "too many requests; wait a while and try again"
        case .sourcesTooMany: return "ask for at most 20 sources at once"
        case .sourceDoesNotExist: return "a requested source id is unknown; list them with `geonews sources`"
        case .unexpectedError: return "NewsAPI failed internally; try again later"
        case .maximumResultsReached: return "developer plans stop at 100 results; narrow the search or ask for an earlier page"
        case .other: return "see the NewsAPI documentation for this code"
        }
    }

    /// Whether the code is about the key or the plan rather than the request.
    var isConfigurationProblem: Bool {
        switch self {
        case .apiKeyMissing, .apiKeyInvalid, .apiKeyDisabled, .apiKeyExhausted: return true
        default: return false
        }
    }
}

/// Everything that can go wrong fetching headlines. `message` is one line a user can act on;
/// no case ever carries an API key (provider messages are redacted before they are stored).
public enum HeadlineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider needs a key and none is configured.
    case missingKey(NewsProvider)
    /// A country code outside the 54 news countries (or not two letters).
    case unknownCountry(String)
    /// A value the caller passed that the provider cannot use, e.g. a language it lacks.
    case invalidInput(field: String, value: String, reason: String)
    /// The provider has no such operation (e.g. sources on Google News).
    case unsupported(NewsProvider, operation: String)
    /// Google News redirected the edition to `/rss/unsupported`.
    case editionUnsupported(country: String, edition: String)
    /// The network failed before an HTTP answer arrived (refused, reset, DNS, TLS).
    case network(NewsProvider, reason: String)
    /// No complete answer within the deadline, in seconds.
    case timedOut(NewsProvider, seconds: Double)
    /// An HTTP status the provider's error format did not explain.
    case httpStatus(NewsProvider, status: Int, message: String?)
    /// HTTP 429 whose `Retry-After` (seconds) was too long to wait for.
    case rateLimited(NewsProvider, retryAfter: Double?, message: String?)
    /// A NewsAPI error body.
    case newsAPI(NewsAPIErrorCode, status: Int, message: String)
    /// A body that is not the provider's JSON or RSS; `detail` names the field or XML line.
    case malformedResponse(NewsProvider, detail: String)
    /// The configuration file or an environment variable is unreadable or invalid.
    case configuration(source: String, detail: String)
    /// Data/google-news-editions.json is missing or invalid.
    case editionTable(path: String, detail: String)
    /// Data/gdelt-countries.json is missing or invalid.
    case gdeltTable(path: String, detail: String)
    /// The provider answered with a page of text or HTML instead of its data format (GDELT does
    /// so, with status 200, for queries it refuses); `message` is that page's text.
    case refused(NewsProvider, message: String)
    /// A page beyond what the provider returns for one request (`reachable` articles).
    case pageOutOfReach(NewsProvider, page: Int, limit: Int, reachable: Int)
    /// The provider's rate limit leaves `seconds` until the next request may be sent.
    case paced(NewsProvider, seconds: Double)

    /// What the caller should do about the error, coarsely: fix their input, fix the
    /// configuration, or try again later.
    public enum Kind: Sendable {
        case badInput, configuration, unavailable
    }

    public var kind: Kind {
        switch self {
        case .unknownCountry, .invalidInput, .pageOutOfReach: return .badInput
        case .missingKey, .configuration, .editionTable, .gdeltTable: return .configuration
        case .newsAPI(let code, _, _): return code.isConfigurationProblem ? .configuration : .unavailable
        case .httpStatus(_, let status, _) where status == 401 || status == 403: return .configuration
        default: return .unavailable
        }
    }

    /// The provider concerned, when there is one.
    public var provider: NewsProvider? {
        switch self {
        case .missingKey(let p), .unsupported(let p, _), .network(let p, _), .timedOut(let p, _),
            .httpStatus(let p, _, _), .rateLimited(let p, _, _), .malformedResponse(let p, _),
            .refused(let p, _), .pageOutOfReach(let p, _, _, _), .paced(let p, _):
            return p
        case .newsAPI: return .newsAPI
        case .editionUnsupported: return .googleNews
        default: return nil
        }
    }

    public var message: String {
        switch self {
        case .missingKey(let p):
            let variable = p == .gnews ? "GNEWS_API_KEY" : "NEWSAPI_KEY"
            return "\(p) needs an API key: set \(variable) or add it to config.json"
        case .unknownCountry(let code):
            return "country \"\(code)\" is not one of the 54 news countries (two letters, e.g. fr, us, jp)"
        case .invalidInput(let field, let value, let reason):
            return "\(field) \"\(value)\": \(reason)"
        case .unsupported(let p, let operation):
            return "\(p) does not support \(operation)"
        case .editionUnsupported(let country, let edition):
            return "Google News has no edition \(edition) for \(country) (redirected to /rss/unsupported)"
        case .network(let p, let reason):
            return "\(p) could not be reached: \(reason)"
        case .timedOut(let p, let seconds):
            return "\(p) did not answer within \(Self.seconds(seconds)) s"
        case .httpStatus(let p, let status, let message):
            return "\(p) answered HTTP \(status)" + (message.map { ": \($0)" } ?? "")
        case .rateLimited(let p, let retryAfter, let message):
            let wait = retryAfter.map { "; retry after \(Self.seconds($0)) s" } ?? ""
            return "\(p) rate limit reached (HTTP 429)\(wait)" + (message.map { ": \($0)" } ?? "")
        case .newsAPI(let code, let status, let message):
            return "NewsAPI \(code.name) (HTTP \(status)): \(message) — \(code.advice)"
        case .malformedResponse(let p, let detail):
            return "\(p) sent a response we could not read: \(detail)"
        case .configuration(let source, let detail):
            return "configuration \(source): \(detail)"
        case .editionTable(let path, let detail):
            return "Google News edition table \(path): \(detail) (set GEONEWS_DATA to the folder holding it)"
        case .gdeltTable(let path, let detail):
            return "GDELT country table \(path): \(detail) (set GEONEWS_DATA to the folder holding it)"
        case .refused(let p, let message):
            return "\(p) refused the request: \(message)"
        case .pageOutOfReach(let p, let page, let limit, let reachable):
            return "\(p) cannot page that far: page \(page) of \(limit) needs articles \((page - 1) * limit + 1)–\(page * limit), "
                + "and \(p) returns at most \(reachable) for a request"
        case .paced(let p, let seconds):
            return "\(p) is held to its rate limit; the next request may be sent in \(Self.seconds((seconds * 10).rounded(.up) / 10)) s"
        }
    }

    public var description: String { message }

    /// Whether trying later could succeed with no change: the network, a timeout, a rate limit.
    /// Such failures are answered from an older cache entry when there is one.
    var isTransient: Bool {
        switch self {
        case .network, .timedOut, .rateLimited, .paced: return true
        case .httpStatus(_, let status, _): return status >= 500
        default: return false
        }
    }

    private static func seconds(_ value: Double) -> String {
        Int(exactly: value).map(String.init) ?? String(format: "%.1f", value)
    }
}

extension HeadlineError: LocalizedError {
    public var errorDescription: String? { message }
}

import Foundation

/// An API key. It prints as `[redacted]`, so interpolating it into a message, a log line or a
/// cache key cannot leak it; only `HTTPTransport` reads the secret, to put it in a header.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    let secret: String

    /// `nil` for an empty or all-blank value, so an unset-but-exported variable counts as absent.
    public init?(_ secret: String) {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.secret = trimmed
    }

    public var description: String { "[redacted]" }
    public var debugDescription: String { "[redacted]" }

    /// `text` with every occurrence of the key replaced, for provider messages we pass on.
    func redacting(_ text: String) -> String {
        text.replacingOccurrences(of: secret, with: "[redacted]")
    }
}

/// One GET request to a provider, described without its key.
///
/// The key travels beside the URL and is sent only as a header, so `url` and `cacheIdentity`
/// can be logged, hashed and stored freely.
struct ProviderRequest: Sendable {
    var provider: NewsProvider
    /// `scheme://host[:port]`; paths stay the provider's own.
    var baseURL: URL
    var path: String
    var query: [URLQueryItem]
    /// Sent as `X-Api-Key` (NewsAPI and GNews both accept that header).
    var apiKey: APIKey?

    /// The request URL. Never contains the key.
    var url: URL {
        var components = URLComponents()
        components.scheme = baseURL.scheme
        components.host = baseURL.host
        components.port = baseURL.port
        components.path = path
        components.queryItems = query.isEmpty ? nil : query
        // `+` is legal in a query but means a space to most servers; send it encoded.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// What the cache is keyed by: the provider and the key-free URL.
    var cacheIdentity: String { "\(provider.rawValue) GET \(url.absoluteString)" }
}

/// A complete HTTP answer.
struct HTTPResponse: Sendable {
    var status: Int
    /// Header names lowercased.
    var headers: [String: String]
    /// The body, already gzip-decoded by libcurl when the server sent `Content-Encoding: gzip`.
    var body: Data
    /// The URL that answered, after redirects.
    var url: URL

    var isSuccess: Bool { (200..<300).contains(status) }

    /// `Retry-After` in seconds, at most ``longestRetryAfter``: a number of seconds or an HTTP
    /// date, `nil` when absent or garbled (`inf`, `nan`, negative).
    func retryAfter(now: Date = Date()) -> Double? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value) {
            return seconds.isFinite && seconds >= 0 ? min(seconds, Self.longestRetryAfter) : nil
        }
        return WireTimestamp.rfc2822(value).map { min(max(0, $0.timeIntervalSince(now)), Self.longestRetryAfter) }
    }

    /// The longest `Retry-After` taken from a provider, in seconds (a day): a provider's
    /// header must not push a pause, or a number printed from it, past what a clock can hold.
    static let longestRetryAfter = 86_400.0
}

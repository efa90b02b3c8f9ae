import Foundation

/// Everything the headline providers need: order, keys, addresses, timeouts, cache.
///
/// Usually built by `fromEnvironment(_:providers:useCache:)`; tests and embedders may build
/// one directly.
public struct HeadlineConfiguration: Sendable {
    /// The providers to ask, in order.
    public var providers: [NewsProvider]
    public var newsAPIKey: APIKey?
    public var gnewsKey: APIKey?
    /// `scheme://host[:port]` per provider, replacing the public address.
    public var baseURLs: [NewsProvider: URL]
    public var timeouts: HTTPTimeouts
    public var retry: RetryPolicy
    /// `nil` turns caching off entirely (`--no-cache`).
    public var cache: ResponseCache?
    /// Data/google-news-editions.json.
    public var editionTableURL: URL
    /// Requests allowed per provider and interval; a provider without an entry is not paced.
    public var rateLimits: [NewsProvider: RateLimit]

    /// The default pacing: GDELT's published one request per 5 s.
    public static let defaultRateLimits: [NewsProvider: RateLimit] = [.gdelt: .gdelt]

    /// Data/gdelt-countries.json, beside the edition table.
    public var gdeltTableURL: URL {
        editionTableURL.deletingLastPathComponent().appendingPathComponent("gdelt-countries.json")
    }

    public init(
        providers: [NewsProvider], newsAPIKey: APIKey? = nil, gnewsKey: APIKey? = nil,
        baseURLs: [NewsProvider: URL] = [:], timeouts: HTTPTimeouts = HTTPTimeouts(),
        retry: RetryPolicy = RetryPolicy(), cache: ResponseCache?, editionTableURL: URL,
        rateLimits: [NewsProvider: RateLimit] = HeadlineConfiguration.defaultRateLimits
    ) {
        self.rateLimits = rateLimits
        self.providers = providers
        self.newsAPIKey = newsAPIKey
        self.gnewsKey = gnewsKey
        self.baseURLs = baseURLs
        self.timeouts = timeouts
        self.retry = retry
        self.cache = cache
        self.editionTableURL = editionTableURL
    }

    /// The public addresses, used unless overridden.
    public static let defaultBaseURLs: [NewsProvider: URL] = [
        .googleNews: URL(string: "https://news.google.com")!,
        .newsAPI: URL(string: "https://newsapi.org")!,
        .gnews: URL(string: "https://gnews.io")!,
        .gdelt: URL(string: "https://api.gdeltproject.org")!,
    ]

    /// The variable that overrides each provider's address.
    public static let baseURLVariables: [NewsProvider: String] = [
        .googleNews: "GEONEWS_GOOGLE_NEWS_URL", .newsAPI: "GEONEWS_NEWSAPI_URL", .gnews: "GEONEWS_GNEWS_URL",
        .gdelt: "GEONEWS_GDELT_URL",
    ]

    public func key(for provider: NewsProvider) -> APIKey? {
        switch provider {
        case .googleNews, .gdelt: return nil
        case .newsAPI: return newsAPIKey
        case .gnews: return gnewsKey
        }
    }

    public func baseURL(for provider: NewsProvider) -> URL {
        baseURLs[provider] ?? Self.defaultBaseURLs[provider]!
    }

    /// The contents of `config.json`; every field is optional.
    ///
    /// ```json
    /// {"providers": ["google-news", "gdelt", "newsapi"], "newsapiKey": "…", "gnewsApiKey": "…",
    ///  "cacheTTLSeconds": 900, "connectTimeoutSeconds": 5, "requestTimeoutSeconds": 10,
    ///  "rateLimits": {"gdelt": {"requests": 1, "intervalSeconds": 5}}}
    /// ```
    public struct File: Codable, Sendable, Equatable {
        /// Provider name → its limit; replaces that provider's default.
        public var rateLimits: [String: RateLimit]?
        public var providers: [NewsProvider]?
        public var newsapiKey: String?
        public var gnewsApiKey: String?
        public var cacheTTLSeconds: Double?
        public var connectTimeoutSeconds: Double?
        public var requestTimeoutSeconds: Double?
    }

    /// Builds the configuration from the environment and the config file.
    ///
    /// - Keys: `NEWSAPI_KEY`, `GNEWS_API_KEY`, else `newsapiKey` / `gnewsApiKey` in the file.
    /// - File: `$GEONEWS_CONFIG` (must exist when set), else `$XDG_CONFIG_HOME/geonews/config.json`,
    ///   else `~/.config/geonews/config.json` (absent is fine).
    /// - Cache: `$GEONEWS_CACHE_DIR`, else `$XDG_CACHE_HOME/geonews`, else `~/.cache/geonews`.
    /// - Addresses: `GEONEWS_GOOGLE_NEWS_URL`, `GEONEWS_GDELT_URL`, `GEONEWS_NEWSAPI_URL`,
    ///   `GEONEWS_GNEWS_URL`, each `scheme://host[:port]` with no path.
    /// - Order: `providers` (from `--provider`) when given, else the file's, else Google News,
    ///   GDELT, then NewsAPI and GNews when their keys are set.
    /// - Pacing: `rateLimits` in the file, over `defaultRateLimits`.
    ///
    /// - Edition table: `editionTable` when given (e.g. from the data folder the caller already
    ///   located), else `GoogleNewsEditionTable.locate(environment:)`.
    ///
    /// Throws `HeadlineError.configuration` naming the file or variable at fault,
    /// `.missingKey` when an explicitly chosen provider has no key, and `.editionTable` when
    /// the edition table cannot be found.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        providers chosen: [NewsProvider]? = nil, useCache: Bool = true, editionTable: URL? = nil
    ) throws -> HeadlineConfiguration {
        let file = try loadFile(environment)
        let newsAPIKey = environment["NEWSAPI_KEY"].flatMap(APIKey.init) ?? file.newsapiKey.flatMap(APIKey.init)
        let gnewsKey = environment["GNEWS_API_KEY"].flatMap(APIKey.init) ?? file.gnewsApiKey.flatMap(APIKey.init)

        var baseURLs: [NewsProvider: URL] = [:]
        for (provider, variable) in baseURLVariables {
            if let value = environment[variable], !value.isEmpty {
                baseURLs[provider] = try origin(value, variable: variable)
            }
        }

        let explicit = chosen ?? file.providers
        var order = explicit ?? [.googleNews, .gdelt]
        if explicit == nil {
            if newsAPIKey != nil { order.append(.newsAPI) }
            if gnewsKey != nil { order.append(.gnews) }
        }
        guard !order.isEmpty else {
            throw HeadlineError.configuration(source: "providers", detail: "the provider list is empty")
        }

        let timeouts = HTTPTimeouts(connect: file.connectTimeoutSeconds ?? 5, request: file.requestTimeoutSeconds ?? 10)
        guard timeouts.connect > 0, timeouts.request > 0 else {
            throw HeadlineError.configuration(source: "config.json", detail: "timeouts must be positive seconds")
        }
        let cache =
            useCache
            ? ResponseCache(
                directory: cacheDirectory(environment),
                timeToLive: file.cacheTTLSeconds ?? 15 * 60) : nil
        guard let table = editionTable ?? GoogleNewsEditionTable.locate(environment: environment) else {
            throw HeadlineError.editionTable(path: "Data/google-news-editions.json", detail: "not found")
        }
        let configuration = HeadlineConfiguration(
            providers: order, newsAPIKey: newsAPIKey, gnewsKey: gnewsKey, baseURLs: baseURLs,
            timeouts: timeouts, cache: cache, editionTableURL: table, rateLimits: try rateLimits(file))
        if let missing = order.first(where: { $0.needsKey && configuration.key(for: $0) == nil }) {
            throw HeadlineError.missingKey(missing)
        }
        return configuration
    }

    /// `defaultRateLimits` with the file's `rateLimits` laid over them; throws
    /// `HeadlineError.configuration` for an unknown provider or a limit that is not positive.
    static func rateLimits(_ file: File) throws -> [NewsProvider: RateLimit] {
        var limits = defaultRateLimits
        for (name, limit) in file.rateLimits ?? [:] {
            guard let provider = NewsProvider(rawValue: name) else {
                throw HeadlineError.configuration(
                    source: "config.json",
                    detail: "rateLimits names \"\(name)\", not one of \(NewsProvider.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard limit.requests >= 1, limit.intervalSeconds > 0, limit.intervalSeconds <= 86_400 else {
                throw HeadlineError.configuration(
                    source: "config.json", detail: "rateLimits.\(name) needs requests ≥ 1 and intervalSeconds in 0…86400")
            }
            limits[provider] = limit
        }
        return limits
    }

    static func loadFile(_ environment: [String: String]) throws -> File {
        let url: URL
        if let explicit = environment["GEONEWS_CONFIG"], !explicit.isEmpty {
            url = URL(fileURLWithPath: explicit)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw HeadlineError.configuration(source: "GEONEWS_CONFIG", detail: "\(url.path) does not exist")
            }
        } else {
            url = xdgFolder(environment, variable: "XDG_CONFIG_HOME", fallback: ".config")
                .appendingPathComponent("geonews/config.json")
            guard FileManager.default.fileExists(atPath: url.path) else { return File() }
        }
        do {
            return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw HeadlineError.configuration(source: url.path, detail: JSONBody.describe(error))
        } catch {
            throw HeadlineError.configuration(source: url.path, detail: "cannot be read")
        }
    }

    static func cacheDirectory(_ environment: [String: String]) -> URL {
        if let explicit = environment["GEONEWS_CACHE_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        return xdgFolder(environment, variable: "XDG_CACHE_HOME", fallback: ".cache").appendingPathComponent("geonews")
    }

    /// `$variable` when it is an absolute path (the XDG spec says to ignore relative ones),
    /// else `~/fallback`.
    private static func xdgFolder(_ environment: [String: String], variable: String, fallback: String) -> URL {
        if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(fallback)
    }

    /// `scheme://host[:port]` of `value`; rejects other schemes, paths, queries and credentials.
    static func origin(_ value: String, variable: String) throws -> URL {
        guard let components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw HeadlineError.configuration(source: variable, detail: "\"\(value)\" is not an http(s)://host[:port] address")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil,
            components.user == nil, components.password == nil
        else {
            throw HeadlineError.configuration(source: variable, detail: "give only scheme://host[:port]; the providers' own paths are kept")
        }
        var origin = URLComponents()
        origin.scheme = scheme
        origin.host = host
        origin.port = components.port
        return origin.url!
    }
}

import Foundation
import GeoNewsLoopback
import XCTest

@testable import GeoNewsHeadlines

/// Shared set-up: the key used everywhere (so leaks can be searched for), services wired to a
/// loopback server, and scratch folders.
enum TestSupport {
    static let secret = "k3y-7f3a9c-DO-NOT-LEAK"
    static var key: APIKey { APIKey(secret)! }

    /// The repository's Data/google-news-editions.json.
    static var editionTableURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Data/google-news-editions.json")
    }

    static func scratchDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A service whose every provider points at `server`. `cacheDirectory: nil` turns the cache off;
    /// no provider is paced unless `rateLimits` says so.
    static func service(
        _ server: LoopbackHTTPServer, providers: [NewsProvider], newsAPIKey: APIKey? = key, gnewsKey: APIKey? = key,
        cacheDirectory: URL? = nil, timeToLive: Double = 900,
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: 3, request: 5),
        retry: RetryPolicy = RetryPolicy(backoff: 0.05, longestRetryAfter: 1.5),
        rateLimits: [NewsProvider: RateLimit] = [:]
    ) throws -> HeadlineService {
        let configuration = HeadlineConfiguration(
            providers: providers, newsAPIKey: newsAPIKey, gnewsKey: gnewsKey,
            baseURLs: Dictionary(uniqueKeysWithValues: NewsProvider.allCases.map { ($0, server.baseURL) }),
            timeouts: timeouts, retry: retry,
            cache: cacheDirectory.map { ResponseCache(directory: $0, timeToLive: timeToLive) },
            editionTableURL: editionTableURL, rateLimits: rateLimits)
        return try HeadlineService(configuration: configuration)
    }

    /// Every byte of every file under `directory`.
    static func filesContents(_ directory: URL) -> [(URL, Data)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.map { directory.appendingPathComponent($0) }.map { ($0, (try? Data(contentsOf: $0)) ?? Data()) }
    }

    static func date(_ iso: String) -> Date { WireTimestamp.iso8601(iso)! }

    /// `service.search` between 2024-04-28 12:00 and 2024-05-01 00:00 UTC, the bounds the
    /// search tests send.
    static func searchEndOfApril(
        _ service: HeadlineService, _ query: String, language: String, sortBy: SearchSort,
        limit: Int
    ) async -> HeadlineResult {
        await service.search(
            query, language: language, from: date("2024-04-28T12:00:00Z"), to: date("2024-05-01T00:00:00Z"),
            sortBy: sortBy, limit: limit)
    }
}

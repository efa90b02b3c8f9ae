import ArgumentParser
import Foundation
import GeoNewsCommandLine
import GeoNewsHeadlines

/// `geonews headlines --country fr`: top headlines of a news country through the provider chain.
struct HeadlinesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headlines",
        abstract: "Top headlines of one of the 54 news countries.",
        discussion: """
            Providers are asked in order until one has articles: Google News RSS and GDELT (no \
            key) first, then NewsAPI when NEWSAPI_KEY is set and GNews when GNEWS_API_KEY is set, \
            unless --provider or config.json says otherwise. NewsAPI has served top headlines only \
            for "us" since 2024. Google News pages reach 100 articles, GDELT's 250; past that the \
            next provider is asked.
            Exit codes: 0 done, 64 bad input, 69 headlines unavailable (network or provider \
            failure), 78 configuration missing (no key for the chosen provider).
            """
    )

    @Option(help: ArgumentHelp("Two-letter news country code, e.g. fr, us, jp.", valueName: "code"))
    var country: String

    @Option(help: ArgumentHelp("One of \(HeadlineCategory.allCases.map(\.rawValue).joined(separator: " ")).", valueName: "name"))
    var category: String?

    @Option(help: ArgumentHelp("Edition language where a country has several (e.g. fr for ca).", valueName: "code"))
    var language: String?

    @Option(help: ArgumentHelp("Number of articles per page, 1…100.", valueName: "n"))
    var limit = 10

    @Option(help: ArgumentHelp("Page of --limit articles, from 1.", valueName: "n"))
    var page = 1

    @Option(help: ArgumentHelp("provider (the provider's ranking) or published (newest first).", valueName: "order"))
    var sort = "provider"

    /// The listing's first words instead of "Headlines for <country>" (`geonews --lat … --lon …`
    /// prints its headlines under "Headlines").
    @Option(help: .hidden)
    var listingTitle: String?

    @OptionGroup var service: HeadlineServiceOptions

    func run() async throws {
        let category = try HeadlineServiceOptions.category(category)
        guard let order = HeadlineOrder(rawValue: sort.lowercased()) else {
            throw fail("sort '\(sort)' is not one of \(HeadlineOrder.allCases.map(\.rawValue).joined(separator: " "))", .usage)
        }
        let headlines = try service.make()
        let result = await headlines.topHeadlines(
            country: country, category: category, language: language, limit: limit,
            page: page, order: order)
        try service.report(result, title: listingTitle ?? "Headlines for \(result.country ?? country)")
    }
}

/// Options shared by `headlines`, `search` and `sources`: provider order, cache, JSON output.
struct HeadlineServiceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Provider or comma-separated order: \(NewsProvider.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "names"))
    var provider: String?

    @Flag(help: "Ask the providers even when a cached answer is fresh, and store nothing.")
    var noCache = false

    @Flag(help: "Print JSON instead of a list.")
    var json = false

    /// The service configured from the environment, config.json and these flags.
    func make() throws -> HeadlineService {
        try Self.service(providers: provider.map(Self.providers), useCache: !noCache)
    }

    /// The service, or a one-line failure with exit 78 (missing key or config) or 64.
    static func service(providers: [NewsProvider]?, useCache: Bool) throws -> HeadlineService {
        do {
            return try HeadlineService(configuration: .fromEnvironment(providers: providers, useCache: useCache))
        } catch let error as HeadlineError {
            throw fail(error.message, status(error.kind))
        }
    }

    /// Prints `result` (a list or JSON on standard output, warnings and the failure reason on
    /// standard error) and fails with the documented code when it has no articles.
    func report(_ result: HeadlineResult, title: String) throws {
        if json {
            print(try Self.jsonString(result))
        } else if result.provider != nil {
            print(ArticleListing(result: result, title: title).text, terminator: "")
        }
        if let warning = result.warning { printError("warning: \(warning)") }
        if let error = result.error {
            throw fail(error, Self.status(result.errorKind ?? .unavailable))
        }
    }

    static func jsonString<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func status(_ kind: HeadlineError.Kind) -> ExitStatus {
        switch kind {
        case .badInput: return .usage
        case .configuration: return .configuration
        case .unavailable: return .headlinesUnavailable
        }
    }

    static func providers(_ text: String) throws -> [NewsProvider] {
        try text.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let provider = NewsProvider(rawValue: trimmed) else {
                throw fail("provider '\(trimmed)' is not one of \(NewsProvider.allCases.map(\.rawValue).joined(separator: ", "))", .usage)
            }
            return provider
        }
    }

    static func category(_ text: String?) throws -> HeadlineCategory? {
        guard let text else { return nil }
        guard let category = HeadlineCategory(rawValue: text.lowercased()) else {
            throw fail("category '\(text)' is not one of \(HeadlineCategory.allCases.map(\.rawValue).joined(separator: " "))", .usage)
        }
        return category
    }
}

/// A numbered list of articles for the terminal.
struct ArticleListing {
    let result: HeadlineResult
    let title: String

    var text: String {
        let provider = result.provider?.displayName ?? "no provider"
        var lines = ["\(title) — \(provider), \(result.articles.count) articles"]
        for (index, article) in result.articles.enumerated() {
            lines.append(String(format: "%2d. ", index + 1) + article.title)
            let details = [article.sourceName, article.publishedAt.map(Self.when)].compactMap { $0 }
            if !details.isEmpty { lines.append("    " + details.joined(separator: " · ")) }
            lines.append("    " + article.url.absoluteString)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `2024-05-01 09:30 UTC`.
    static func when(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}

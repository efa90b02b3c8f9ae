import ArgumentParser
import Foundation
import GeoNewsCommandLine
import GeoNewsHeadlines

/// `geonews headlines --country fr`: top headlines of a news country through the provider chain;
/// `--near LAT,LON` and `--region CODE`: local headlines, town first, then region, then country.
struct HeadlinesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headlines",
        abstract: "Top headlines of one of the 54 news countries, or local headlines of a position or a region.",
        discussion: """
            Give one of --country, --near or --region. --near LAT,LON asks for news about the \
            position's town (the most populous place within 15 km) and then its region, each by \
            name as one quoted phrase in the edition of its suggested news country (Google News \
            search, GDELT with sourcecountry:), and fills the list from the country's front page; \
            --region CODE (FR-ARA, DE-BY, or a GeoNames code such as FR.84) starts at the region. \
            Each article is marked with the level it was found at (JSON: scope town, region or \
            country), and a level that found nothing is named.
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
    var country: String?

    @Option(help: ArgumentHelp("Local headlines of a position: latitude,longitude in degrees.", valueName: "lat,lon"))
    var near: String?

    @Option(help: ArgumentHelp("Local headlines of a region: ISO 3166-2 or GeoNames admin1 code (FR-ARA, FR.84).", valueName: "code"))
    var region: String?

    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "The GeoNews Data directory for --near and --region (default: $GEONEWS_DATA, else beside the executable).", valueName: "dir"))
    var dataPath: String?

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
        let given = [country.map { _ in "--country" }, near.map { _ in "--near" }, region.map { _ in "--region" }].compactMap { $0 }
        guard given.count == 1 else {
            throw fail(given.isEmpty ? "give --country, --near or --region" : "give only one of \(given.joined(separator: ", "))", .usage)
        }
        if country == nil {
            if category != nil { throw fail("--category applies to --country only (local headlines are searched by name)", .usage) }
            if page != 1 { throw fail("--page applies to --country only", .usage) }
            if sort.lowercased() != HeadlineOrder.provider.rawValue {
                throw fail("--sort applies to --country only (local headlines are newest first per level)", .usage)
            }
            guard (1...100).contains(limit) else { throw fail("limit \"\(limit)\": must be 1…100", .usage) }
        }
        let headlines = try service.make()
        if let country {
            let result = await headlines.topHeadlines(
                country: country, category: category, language: language, limit: limit,
                page: page, order: order)
            try service.report(result, title: listingTitle ?? "Headlines for \(result.country ?? country)")
            return
        }
        let target =
            try near.map { try LocalTarget.near($0, data: dataPath, editions: headlines.editions, language: language) }
            ?? LocalTarget.region(region ?? "", data: dataPath, editions: headlines.editions, language: language)
        let result = await headlines.localHeadlines(area: target.area, language: language, limit: limit)
        try service.report(result, title: (listingTitle ?? "Local headlines") + (target.label.isEmpty ? "" : " for \(target.label)"))
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

    /// ``report(_:title:)`` for a local answer: each article marked with its level, and the
    /// levels that found nothing named under the title.
    func report(_ result: LocalHeadlineResult, title: String) throws {
        if json {
            print(try Self.jsonString(result))
        } else if !result.articles.isEmpty {
            print(LocalArticleListing(result: result, title: title).text, terminator: "")
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

/// The numbered list of a local answer: `[Lyon]`, `[Auvergne-Rhône-Alpes]` or `[national]`
/// before each headline.
struct LocalArticleListing {
    let result: LocalHeadlineResult
    let title: String

    var text: String {
        let counts = result.scopes.filter { $0.articles > 0 }.map { report in
            "\(report.articles) " + (report.scope == .country ? "national" : "about \(mark(report.scope))")
                + (report.provider.map { " (\($0.displayName))" } ?? "")
        }
        var lines = ["\(title) — " + counts.joined(separator: ", ")]
        if let note = result.fallbackNote { lines.append(note.prefix(1).uppercased() + note.dropFirst() + ".") }
        for (index, scoped) in result.articles.enumerated() {
            let article = scoped.article
            lines.append(String(format: "%2d. ", index + 1) + "[\(mark(scoped.scope))] " + article.title)
            let details = [article.sourceName, article.publishedAt.map(ArticleListing.when)].compactMap { $0 }
            if !details.isEmpty { lines.append("    " + details.joined(separator: " · ")) }
            lines.append("    " + article.url.absoluteString)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func mark(_ scope: LocalScope) -> String {
        switch scope {
        case .town: return result.town ?? "town"
        case .region: return result.region ?? "region"
        case .country: return "national"
        }
    }
}

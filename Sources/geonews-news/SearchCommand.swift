import ArgumentParser
import Foundation
import GeoNewsCommandLine
import GeoNewsHeadlines

/// `geonews search "query"`: articles matching a query, from the providers that can search.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search news articles.",
        discussion: """
            Google News searches the edition of --language (English, US edition, by default), \
            then GDELT (all languages, or --language); NewsAPI and GNews search when their keys \
            are set. Sorting by popularity needs NewsAPI. --page N shows the Nth --limit \
            articles: Google News reaches 100, GDELT 250, NewsAPI and GNews page themselves.
            Exit codes: 0 done, 64 bad input, 69 no provider could answer, 78 configuration missing.
            """
    )

    @Argument(help: "Search terms.")
    var query: String

    @Option(help: ArgumentHelp("Two-letter language code, e.g. fr.", valueName: "code"))
    var language: String?

    @Option(help: ArgumentHelp("published (newest first), relevance or popularity.", valueName: "order"))
    var sort = "published"

    @Option(help: ArgumentHelp("Published on or after this day (YYYY-MM-DD, UTC).", valueName: "day"))
    var from: String?

    @Option(help: ArgumentHelp("Published before this day (YYYY-MM-DD, UTC).", valueName: "day"))
    var to: String?

    @Option(help: ArgumentHelp("Number of articles per page, 1…100.", valueName: "n"))
    var limit = 10

    @Option(help: ArgumentHelp("Page of --limit articles, from 1.", valueName: "n"))
    var page = 1

    @OptionGroup var service: HeadlineServiceOptions

    func run() async throws {
        guard let order = SearchSort(rawValue: sort.lowercased()) else {
            throw fail("sort '\(sort)' is not one of \(SearchSort.allCases.map(\.rawValue).joined(separator: " "))", .usage)
        }
        let from = try Self.day(from, flag: "--from")
        let to = try Self.day(to, flag: "--to")
        let search = try service.make()
        let result = await search.search(query, language: language, from: from, to: to, sortBy: order, limit: limit, page: page)
        try service.report(result, title: "Articles for \"\(result.query ?? query)\"")
    }

    private static func day(_ text: String?, flag: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = HeadlineService.searchDate(text) else {
            throw fail("\(flag) '\(text)' is not a day like 2024-05-01", .usage)
        }
        return date
    }
}

import ArgumentParser
import Foundation
import GeoNewsCommandLine
import GeoNewsHeadlines

/// `geonews sources`: NewsAPI's list of publishers.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List NewsAPI's news sources (needs NEWSAPI_KEY).",
        discussion: """
            Only NewsAPI lists its sources; without a NewsAPI key this command exits with 78.
            Exit codes: 0 done, 64 bad input, 69 NewsAPI unavailable, 78 no NewsAPI key.
            """
    )

    @Option(help: ArgumentHelp("Two-letter country code.", valueName: "code"))
    var country: String?

    @Option(help: ArgumentHelp("One of \(HeadlineCategory.allCases.map(\.rawValue).joined(separator: " ")).", valueName: "name"))
    var category: String?

    @Option(help: ArgumentHelp("Two-letter language code.", valueName: "code"))
    var language: String?

    @Flag(help: "Ask NewsAPI even when a cached answer is fresh, and store nothing.")
    var noCache = false

    @Flag(help: "Print JSON instead of a list.")
    var json = false

    private struct Listing: Encodable {
        var provider = NewsProvider.newsAPI
        var sources: [NewsSource]
    }

    func run() async throws {
        let category = try HeadlineServiceOptions.category(category)
        let service = try HeadlineServiceOptions.service(providers: nil, useCache: !noCache)
        let sources: [NewsSource]
        do {
            sources = try await service.sources(country: country, category: category, language: language)
        } catch let error as HeadlineError {
            let message =
                error == .missingKey(.newsAPI)
                ? "sources are listed by NewsAPI only, and no NewsAPI key is configured: set NEWSAPI_KEY or \"newsapiKey\" in config.json"
                : error.message
            throw fail(message, HeadlineServiceOptions.status(error.kind))
        }
        if json {
            print(try HeadlineServiceOptions.jsonString(Listing(sources: sources)))
            return
        }
        print("NewsAPI sources: \(sources.count)")
        for source in sources {
            let tags = [source.country, source.language, source.category].compactMap { $0 }.joined(separator: "/")
            print("\(source.id)\t\(source.name)\t\(tags)\t\(source.url ?? "")")
        }
    }
}

import ArgumentParser
import Foundation
import GeoNews

/// `geonews --lat … --lon …`: the containing country, the suggested news country, and its
/// headlines.
struct LocateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Resolve a position to its country and a suggested news country.",
        discussion: """
            Inside one of the 54 news countries, that country is suggested (reason "inside"). \
            At sea within 25 km of a news country's land, that country (reason "offshore"). \
            Anywhere else, the news country whose marker is nearest on the great circle \
            (reason "nearest-marker").
            Up to --limit headlines of the suggested country follow (Google News RSS needs no \
            key; see `geonews headlines --help`).
            Exit codes: 0 done, 64 bad input, 65 data missing or damaged, \
            69 resolved but headlines unavailable (the resolution is still printed).
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("Latitude in degrees, -90…90.", valueName: "degrees"))
    var lat: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Longitude in degrees, -180…180.", valueName: "degrees"))
    var lon: String

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    @Option(help: ArgumentHelp("Country names in this language (ar bn de el en es fa fr he hi hu id it ja ko nl pl pt ru sv tr uk ur vi zh zht).", valueName: "code"))
    var lang: String?

    @Option(help: ArgumentHelp("Headlines to show, 1…100.", valueName: "n"))
    var limit = 5

    @Flag(help: "Resolve only; fetch no headlines.")
    var noHeadlines = false

    @Option(help: ArgumentHelp("Headline topic: \(HeadlineCategory.allCases.map(\.rawValue).joined(separator: " ")).", valueName: "name"))
    var category: String?

    @Option(help: ArgumentHelp("Headline provider or comma-separated order: google-news, newsapi, gnews.", valueName: "names"))
    var provider: String?

    @Flag(help: "Ask the headline providers even when a cached answer is fresh, and store nothing.")
    var noCache = false

    @OptionGroup var data: DataOptions

    func run() async throws {
        let position: Coordinate
        do {
            position = try parsePosition(lat: lat, lon: lon)
        } catch {
            throw fail("\(error)", .usage)
        }
        if let lang, !Self.languages.contains(lang.lowercased()) {
            throw fail("language '\(lang)' is not one of \(Self.languages.joined(separator: " "))", .usage)
        }
        guard (1...100).contains(limit) else { throw fail("limit \(limit) is outside 1…100", .usage) }
        let category = try HeadlineServiceOptions.category(category)
        let providers = try provider.map(HeadlineServiceOptions.providers)
        let resolver = try data.resolver()
        let resolution = resolver.resolve(position)
        let headlines = noHeadlines ? nil : await fetchHeadlines(for: resolution, category: category, providers: providers)
        if json {
            var report = LocationReport(resolution, language: lang)
            report.headlines = headlines
            print(try report.jsonString())
        } else {
            print(LocationSummary(resolution, language: lang).text)
            if let headlines, headlines.provider != nil, !headlines.articles.isEmpty {
                print("")
                print(ArticleListing(result: headlines, title: "Headlines").text, terminator: "")
            }
        }
        if let warning = headlines?.warning { printError("warning: \(warning)") }
        if let error = headlines?.error {
            throw fail("resolved, but no headlines: \(error)", .headlinesUnavailable)
        }
    }

    /// The suggested country's headlines; a set-up failure (a broken config, a missing key for
    /// a chosen provider) comes back as a result with its error, like a network failure.
    private func fetchHeadlines(for resolution: Resolution, category: HeadlineCategory?, providers: [NewsProvider]?) async -> HeadlineResult {
        let country = (resolution.suggestion.country.iso2 ?? resolution.suggestion.country.id).lowercased()
        do {
            let service = try HeadlineService(configuration: .fromEnvironment(providers: providers, useCache: !noCache))
            return await service.topHeadlines(country: country, category: category, language: nil, limit: limit)
        } catch let error as HeadlineError {
            return HeadlineResult(country: country, category: category, query: nil, rejected: error)
        } catch {
            return HeadlineResult(country: country, category: category, query: nil,
                                  rejected: .configuration(source: "headline set-up", detail: "\(error)"))
        }
    }

    static let languages = ["ar", "bn", "de", "el", "en", "es", "fa", "fr", "he", "hi", "hu", "id", "it", "ja",
                            "ko", "nl", "pl", "pt", "ru", "sv", "tr", "uk", "ur", "vi", "zh", "zht"]
}

/// `--data DIR`, shared by the commands that read Data/.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp("The GeoNews Data directory (default: $GEONEWS_DATA, else found beside the executable).", valueName: "dir"))
    var path: String?

    func directory() throws -> DataDirectory {
        do {
            return try path.map { DataDirectory(path: $0) } ?? DataDirectory.locate()
        } catch {
            throw fail("\(error)", .dataError)
        }
    }

    func resolver(seaSearchKm: Double = .infinity) throws -> CountryResolver {
        do {
            if path == nil, seaSearchKm == .infinity, let preload = ResolverPreload.current {
                return try preload.wait().get()
            }
            return try CountryResolver.load(from: directory(), seaSearchKm: seaSearchKm)
        } catch let error as DataError {
            throw fail("\(error)", .dataError)
        }
    }

    func catalogue() throws -> Catalogue {
        do {
            return try Catalogue.load(from: directory())
        } catch let error as DataError {
            throw fail("\(error)", .dataError)
        }
    }
}

import ArgumentParser
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsData
import GeoNewsGeodesy
import GeoNewsTimeZones

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `geonews --lat … --lon …`: the containing country, the suggested news country, and its
/// headlines.
struct LocateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Resolve a position to its country and a suggested news country.",
        discussion: """
            The country is the one whose land or territorial sea holds the position, as \
            OpenStreetMap draws them; beyond every territorial sea there is none, and the \
            nearest land is named instead. The output also gives the IANA time zone (Etc/GMT±N \
            on the open ocean) with its UTC offset and local time now, and, inside a country, \
            the distance to the nearest edge of its area (a land border or the limit of its \
            waters), and the nearest populated place (GeoNames, 500 people or more) in the same \
            country, or at sea with no country the nearest within 50 km. With --json these are \
            the keys timeZone, utcOffset ("+05:30"), utcOffsetSeconds, borderDistanceKm and \
            place (name, geonameId, population, distanceKm), null when unknown.
            Inside one of the 54 news countries, that country is suggested (reason "inside"). \
            At sea within 25 km of a news country's land, that country (reason "offshore"). \
            Anywhere else, the news country whose marker is nearest on the great circle \
            (reason "nearest-marker").
            Up to --limit headlines follow, local first (Google News RSS needs no key; see \
            `geonews headlines --help`): news about the town (the most populous place within \
            15 km), then about the region where the town has too few, then the suggested \
            country's front page, each marked with its level. --scope region starts at the \
            region; --scope country, or a --category, gives the country's front page alone.
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

    @Option(
        help: ArgumentHelp(
            "Country names in this language (ar bn de el en es fa fr he hi hu id it ja ko nl pl pt ru sv tr uk ur vi zh zht).",
            valueName: "code"))
    var lang: String?

    @Option(help: ArgumentHelp("Headlines to show, 1…100.", valueName: "n"))
    var limit = 5

    @Flag(help: "Resolve only; fetch no headlines.")
    var noHeadlines = false

    @Option(help: ArgumentHelp("Where headlines start: town (then region, then country), region or country.", valueName: "level"))
    var scope = "town"

    @Option(help: ArgumentHelp("Headline topic: \(Self.categories.joined(separator: " ")).", valueName: "name"))
    var category: String?

    @Option(help: ArgumentHelp("Headline provider or comma-separated order: google-news, gdelt, newsapi, gnews.", valueName: "names"))
    var provider: String?

    @Flag(help: "Ask the headline providers even when a cached answer is fresh, and store nothing.")
    var noCache = false

    @OptionGroup var data: DataOptions

    func run() async throws {
        let position: Coordinate
        do {
            position = try Coordinate(parsingLatitude: lat, longitude: lon)
        } catch {
            throw fail("\(error)", .usage)
        }
        try Self.checkLanguage(lang)
        guard (1...100).contains(limit) else { throw fail("limit \(limit) is outside 1…100", .usage) }
        guard ["town", "region", "country"].contains(scope) else {
            throw fail("scope '\(scope)' is not one of town region country", .usage)
        }
        let category = try validatedCategory()
        let providers = try validatedProviders()
        let resolver = try await data.resolver(preloaded: ResolverPreload.started)
        let resolution = resolver.resolve(position)
        let place = try data.places().place(for: resolution)
        let region = try resolution.country == nil ? nil : data.regionIndex().region(for: resolution)
        let suggested = resolution.suggestion.country
        var request = SuggestedHeadlines(
            country: (suggested.iso2 ?? suggested.id).lowercased(), limit: limit,
            category: category, providers: providers, useCache: !noCache)
        if category == nil, scope != "country" {
            let code = scope == "region" ? region?.region.code : nil
            request.local = code.map { ["--region", $0] } ?? ["--near", "\(lat.trimmedOfSpaces),\(lon.trimmedOfSpaces)"]
            if let path = data.path { request.local += ["--data", path] }
        }
        let headlines = noHeadlines ? nil : await request.fetch(asJSON: json)
        // Only a position with a zone pays for reading the zone rules.
        let zoneRules = try resolution.timeZone.map { _ in try data.zoneRules() }
        if json {
            let report = ResolutionReport(resolution, language: lang, headlines: headlines?.json, zoneRules: zoneRules)
            print(try report.withPlace(place).withRegion(region, language: lang).jsonString())
        } else {
            print(LocationSummary(resolution, region: region, place: place, language: lang, zoneRules: zoneRules).text)
            if let listing = headlines?.listing, !listing.isEmpty {
                print("")
                print(listing, terminator: "")
            }
        }
        for warning in headlines?.warnings ?? [] { StandardError.write(warning + "\n") }
        if let error = headlines?.error {
            throw fail("resolved, but no headlines: \(error)", .headlinesUnavailable)
        }
    }

    /// `--category`, lowercased, or a usage failure naming the value.
    private func validatedCategory() throws -> String? {
        guard let category else { return nil }
        guard Self.categories.contains(category.lowercased()) else {
            throw fail("category '\(category)' is not one of \(Self.categories.joined(separator: " "))", .usage)
        }
        return category.lowercased()
    }

    /// `--provider` with each name trimmed and lowercased, or a usage failure naming the value.
    private func validatedProviders() throws -> String? {
        guard let provider else { return nil }
        let names = provider.split(separator: ",").map { $0.trimmedOfSpaces.lowercased() }
        if let unknown = names.first(where: { !Self.providers.contains($0) }) {
            throw fail("provider '\(unknown)' is not one of \(Self.providers.joined(separator: ", "))", .usage)
        }
        return names.joined(separator: ",")
    }

    /// The names `geonews-news` accepts for `--category` and `--provider` (GeoNewsHeadlines'
    /// `HeadlineCategory` and `NewsProvider`), checked here so that a bad value fails before
    /// anything is resolved, as `geonews-news` would.
    static let categories = ["business", "entertainment", "general", "health", "science", "sports", "technology"]
    static let providers = ["google-news", "newsapi", "gnews", "gdelt"]

    /// A `--lang` value that is not one of ``languages`` is a usage error naming it.
    static func checkLanguage(_ lang: String?) throws {
        guard let lang, !languages.contains(lang.lowercased()) else { return }
        throw fail("language '\(lang)' is not one of \(languages.joined(separator: " "))", .usage)
    }

    static let languages = [
        "ar", "bn", "de", "el", "en", "es", "fa", "fr", "he", "hi", "hu", "id", "it", "ja",
        "ko", "nl", "pl", "pt", "ru", "sv", "tr", "uk", "ur", "vi", "zh", "zht",
    ]
}

/// `--data DIR`, shared by the commands that read Data/. A data directory that is missing or
/// damaged exits 65 (``ExitStatus/dataError``) from every command.
struct DataOptions: ParsableArguments {
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp("The GeoNews Data directory (default: $GEONEWS_DATA, else found beside the executable).", valueName: "dir"))
    var path: String?

    func directory() throws -> DataDirectory {
        do {
            return try path.map { DataDirectory(path: $0) } ?? DataDirectory.locate()
        } catch {
            throw fail("\(error)", .dataError)
        }
    }

    /// `read` on the data directory; a `DataError` becomes exit 65 with its message.
    private func load<T>(_ read: (DataDirectory) throws(DataError) -> T) throws -> T {
        let directory = try directory()
        do {
            return try read(directory)
        } catch {
            throw fail("\(error)", .dataError)
        }
    }

    func resolver(options: ResolverOptions) throws -> CountryResolver {
        try load { d throws(DataError) in try CountryResolver.load(from: d, options: options) }
    }

    /// The single-position resolver: the one `preload` loaded when it loaded the one this
    /// command would (no `--data`), else loaded now.
    func resolver(preloaded preload: ResolverPreload?) async throws -> CountryResolver {
        guard path == nil, let preload else { return try resolver(options: .singlePosition) }
        do {
            return try await preload.resolver.get()
        } catch {
            throw fail("\(error)", .dataError)
        }
    }

    /// GeoNames' places (`places.bin`, built from `places.tsv.gz` on first use).
    func places() throws -> PlaceIndex { try load(PlaceIndex.load(from:)) }

    func zoneRules() throws -> TimeZoneRules { try load(TimeZoneRules.load(from:)) }

    func catalogue() throws -> Catalogue { try load(Catalogue.load(from:)) }

    /// The regions' polygons and records (`regions.bin`), mapped.
    func regionIndex() throws -> RegionIndex { try load(RegionIndex.load(from:)) }

    /// Every region and subregion, decoded from `regions.bin` (for listing and search).
    func regions() throws -> RegionCatalogue { try load(RegionCatalogue.load(from:)) }
}

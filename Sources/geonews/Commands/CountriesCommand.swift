import ArgumentParser
import Foundation
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsGeodesy

/// `geonews countries`: the catalogue, or the map's country search box.
struct CountriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "countries",
        abstract: "List or search the countries and territories GeoNews knows.",
        discussion: """
            --search matches a prefix of any word of a name in any of the 26 languages, or an \
            ISO code, ignoring case and accents: "jap", "Japon" and "jp" all find Japan.
            """
    )

    @Option(help: ArgumentHelp("Only entries whose name or code starts with this text.", valueName: "text"))
    var search: String?

    @Option(help: ArgumentHelp("Show names in this language (a Natural Earth code such as fr or zht).", valueName: "code"))
    var lang: String?

    @Flag(help: "Only the 54 countries with news coverage.")
    var newsOnly = false

    @Flag(help: "Print a JSON array.")
    var json = false

    @OptionGroup var data: DataOptions

    func run() async throws {
        if let lang, !LocateCommand.languages.contains(lang.lowercased()) {
            throw fail("language '\(lang)' is not one of \(LocateCommand.languages.joined(separator: " "))", .usage)
        }
        let catalogue = try data.catalogue()
        let found = catalogue.search(search ?? "", newsOnly: newsOnly)
        if json {
            let rows = found.map { CountryRow($0, language: lang) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        for c in found {
            let codes = "\((c.iso2 ?? "--").padding(toLength: 3, withPad: " ", startingAt: 0))\((c.iso3 ?? "---").padding(toLength: 4, withPad: " ", startingAt: 0))"
            let sovereign = c.sovereign == c.name ? "" : "  (\(c.sovereign))"
            print("\(codes)\(c.hasNews ? "★" : " ") \(c.name(in: lang))\(sovereign)")
        }
        if found.isEmpty, let search {
            printError("no country matches '\(search)'")
        }
    }
}

/// One catalogue entry in `geonews countries --json`.
private struct CountryRow: Encodable {
    struct Marker: Encodable { let lat: Double; let lon: Double }
    let id: String
    let iso2: String?
    let iso3: String?
    let name: String
    let continent: String
    let sovereign: String
    let news: Bool
    let marker: Marker

    init(_ c: Country, language: String?) {
        id = c.id
        iso2 = c.iso2
        iso3 = c.iso3
        name = c.name(in: language)
        continent = c.continent
        sovereign = c.sovereign
        news = c.hasNews
        marker = Marker(lat: c.marker.latitude, lon: c.marker.longitude)
    }
}

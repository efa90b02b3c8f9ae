import ArgumentParser
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsGeodesy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            print(String(decoding: try CountryReport.jsonData(found, language: lang), as: UTF8.self))
            return
        }
        for c in found {
            let codes =
                "\((c.iso2 ?? "--").padded(to: 3))\((c.iso3 ?? "---").padded(to: 4))"
            let sovereign = c.sovereign == c.name ? "" : "  (\(c.sovereign))"
            print("\(codes)\(c.hasNews ? "★" : " ") \(c.name(in: lang))\(sovereign)")
        }
        if found.isEmpty, let search {
            printError("no country matches '\(search)'")
        }
    }
}

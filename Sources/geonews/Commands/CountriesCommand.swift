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
            ISO code, ignoring case and accents: "jap", "Japon" and "jp" all find Japan. \
            Without --json, the regions that match follow the countries ("Bayern" and "DE-BY" \
            find Bavaria; geonews regions lists them).
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
        try LocateCommand.checkLanguage(lang)
        try RegionsCommand.checkSearch(search)
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
        // A search also finds regions ("Bayern", "DE-BY"), listed after the countries with the
        // country each belongs to; the plain listing stays the catalogue.
        var regions: [Region] = []
        if let search, !newsOnly, search.contains(where: { !$0.isWhitespace }) {
            regions = try data.regions().search(search)
            if !regions.isEmpty { print("Regions:") }
            for r in regions {
                let country = catalogue.country(iso2: r.country)?.name(in: lang) ?? r.country
                print(
                    "\((r.iso3166Code ?? "-").padded(to: 8))\(r.geonamesAdmin1.padded(to: 13))\(r.name(in: lang)), \(country)"
                )
            }
        }
        if found.isEmpty, regions.isEmpty, let search {
            printError("no country or region matches '\(search)'")
        }
    }
}

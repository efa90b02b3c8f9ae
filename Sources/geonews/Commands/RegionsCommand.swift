import ArgumentParser
import GeoNewsBoundaries
import GeoNewsCommandLine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `geonews regions`: the first-level divisions of a country (states, provinces, regions).
struct RegionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions",
        abstract: "List or search the regions (states, provinces) of the countries GeoNews knows.",
        discussion: """
            Each line gives the ISO 3166-2 code (- where the region has none), GeoNames' admin1 \
            code and the name. --search matches a code, or a prefix of any word of a name in any \
            of the 26 languages, ignoring case and accents: "Bavaria", "Bayern" and "DE-BY" all \
            find Bavaria; with --country a code may leave out the country ("BY").
            """
    )

    @Option(help: ArgumentHelp("Only the regions of this country (ISO alpha-2, such as fr).", valueName: "code"))
    var country: String?

    @Option(help: ArgumentHelp("Only regions whose code or name starts with this text.", valueName: "text"))
    var search: String?

    @Option(help: ArgumentHelp("Show names in this language (a Natural Earth code such as de or zht).", valueName: "code"))
    var lang: String?

    @Flag(help: "Print a JSON array.")
    var json = false

    @OptionGroup var data: DataOptions

    /// The longest search text taken: no name or code of a country or region comes near it.
    static let longestSearch = 100

    /// A search text longer than ``longestSearch`` characters is a usage error that gives its
    /// length rather than echoing it.
    static func checkSearch(_ search: String?) throws {
        guard let search, search.count > longestSearch else { return }
        throw fail("--search text is \(search.count) characters long; at most \(longestSearch) are taken", .usage)
    }

    func run() async throws {
        try LocateCommand.checkLanguage(lang)
        try Self.checkSearch(search)
        var countryName: String?
        if let country {
            let known = try data.catalogue().country(iso2: country.uppercased())
            guard let known else {
                throw fail("country '\(country)' is not an ISO alpha-2 code that GeoNews knows (geonews countries lists them)", .usage)
            }
            countryName = known.name(in: lang)
        }
        let regions = try data.regions()
        let found = regions.search(search ?? "", country: country)
        if json {
            print(String(decoding: try RegionReport.jsonData(found, language: lang), as: UTF8.self))
            return
        }
        for r in found {
            print("\((r.iso3166Code ?? "-").padded(to: 8))\(r.geonamesAdmin1.padded(to: 13))\(r.name(in: lang))")
        }
        if found.isEmpty {
            switch (search, countryName) {
            case (let text?, let name?): printError("no region of \(name) matches '\(text)'")
            case (let text?, nil): printError("no region matches '\(text)'")
            case (nil, let name?): printError("GeoNews knows no regions of \(name)")
            case (nil, nil): break
            }
        }
    }
}

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
            Exit codes: 0 done, 64 bad input, 65 data missing or damaged, \
            69 resolved but headlines unavailable.
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
        let resolver = try data.resolver()
        let resolution = resolver.resolve(position)
        if json {
            let report = LocationReport(resolution, language: lang)
            print(try report.jsonString())
        } else {
            print(LocationSummary(resolution, language: lang).text)
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

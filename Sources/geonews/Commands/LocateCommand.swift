import ArgumentParser
import GeoNews

/// `geonews --lat … --lon …`: the containing country and the suggested news country.
struct LocateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Resolve a position to its country and a suggested news country."
    )

    @Option(help: "Latitude in degrees, -90…90.")
    var lat: String

    @Option(help: "Longitude in degrees, -180…180.")
    var lon: String

    func run() async throws {
        print("not yet")
    }
}

import ArgumentParser

/// `geonews bench`: timing suites a user can run on their own machine.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure GeoNews on this machine (release builds give meaningful figures).",
        subcommands: [
            BenchClusterCommand.self
        ]
    )
}

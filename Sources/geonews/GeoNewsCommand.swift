import ArgumentParser

/// `geonews`: where am I, and what is the news there?
@main
struct GeoNewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonews",
        abstract: "Where am I, and what is the news there?",
        subcommands: [
            LocateCommand.self,
            HeadlinesCommand.self, SearchCommand.self, SourcesCommand.self,
        ],
        defaultSubcommand: LocateCommand.self
    )
}

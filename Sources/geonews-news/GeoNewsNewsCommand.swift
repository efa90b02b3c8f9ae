import ArgumentParser
import GeoNewsCommandLine
import GeoNewsVersion

/// `geonews-news`: the headline commands of `geonews`, in their own executable so that the
/// networking and XML libraries they need are loaded only when headlines are wanted.
///
/// `geonews headlines|search|sources …` replace themselves with this executable, and
/// `geonews --lat … --lon …` runs `geonews-news headlines … --json` for its headlines. Help,
/// usage and error lines therefore name the command users type, `geonews`.
@main
struct GeoNewsNewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonews",
        abstract: "Headlines, article search and news sources.",
        version: GeoNewsRelease.version,
        subcommands: [HeadlinesCommand.self, SearchCommand.self, SourcesCommand.self]
    )

    static func main() async {
        await runReportingOneLine()
    }
}

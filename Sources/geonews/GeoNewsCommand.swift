import ArgumentParser
import GeoNewsCommandLine
import GeoNewsVersion

#if canImport(Glibc)
import Glibc
#endif

/// `geonews`: where am I, and what is the news there?
@main
struct GeoNewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonews",
        abstract: "Where am I, and what is the news there?",
        version: GeoNewsRelease.version,
        subcommands: [
            LocateCommand.self,
            CountriesCommand.self,
            RegionsCommand.self,
            ResolveCommand.self,
            HeadlinesForwarder.self, SearchForwarder.self, SourcesForwarder.self,
            ClusterCommand.self,
            ServeCommand.self,
            DistanceCommand.self,
            BenchCommand.self,
            DataCommand.self,
        ],
        defaultSubcommand: LocateCommand.self
    )

    /// Starts loading the resolver, then parses and runs with one-line failures
    /// (`runReportingOneLine`). A missing or damaged data directory exits 65 from every
    /// command (``GeoNewsCommandLine/ExitStatus/dataError``).
    static func main() async {
        // A reader that goes away (`geonews resolve big.csv | head -1`) ends us as it ends any
        // Unix filter, quietly by SIGPIPE, even when the parent left SIGPIPE ignored.
        signal(SIGPIPE, SIG_DFL)
        let arguments = Array(CommandLine.arguments.dropFirst())
        let preload = ResolverPreload.start(
            arguments: arguments, subcommands: configuration.subcommands.compactMap { $0.configuration.commandName })
        await ResolverPreload.$started.withValue(preload) { () async -> Void in
            if LocateShortcut.applies(to: arguments) {
                await LocateCommand.runReportingOneLine(arguments)
            } else {
                await runReportingOneLine()
            }
        }
    }
}

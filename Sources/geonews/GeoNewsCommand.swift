#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

/// `geonews`: where am I, and what is the news there?
@main
struct GeoNewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonews",
        abstract: "Where am I, and what is the news there?",
        subcommands: [
            LocateCommand.self,
            CountriesCommand.self,
            ResolveCommand.self,
            HeadlinesCommand.self, SearchCommand.self, SourcesCommand.self,
            ClusterCommand.self,
            BenchCommand.self,
        ],
        defaultSubcommand: LocateCommand.self
    )

    /// Parses and runs like ArgumentParser's own `main`, but keeps a failure to one line on
    /// standard error (the message names the flag or value) with the documented exit code.
    static func main() async {
        ResolverPreload.start(arguments: Array(CommandLine.arguments.dropFirst()),
                              subcommands: configuration.subcommands.compactMap { $0.configuration.commandName })
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            let message = message(for: error).split(separator: "\n").first.map(String.init) ?? ""
            if !message.isEmpty { printError(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message) }
            Glibc.exit(code.rawValue)
        }
    }
}

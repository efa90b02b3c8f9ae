import ArgumentParser
import GeoNewsCommandLine

/// `geonews headlines|search|sources …`: each hands its arguments, unparsed, to the same
/// command of `geonews-news`, which then owns the output and the exit status.
protocol ForwardedNewsCommand: ParsableCommand {
    var arguments: [String] { get }
}

extension ForwardedNewsCommand {
    func run() throws {
        let name = Self.configuration.commandName ?? ""
        let error = NewsExecutable.replaceProcess(arguments: [name] + arguments)
        throw fail("\(error)", .headlinesUnavailable)
    }
}

/// Forwards to `geonews-news headlines`.
struct HeadlinesForwarder: ForwardedNewsCommand {
    static let configuration = CommandConfiguration(
        commandName: "headlines",
        abstract: "Top headlines of one of the 54 news countries."
    )

    @Argument(parsing: .captureForPassthrough, help: "See `geonews headlines --help`.")
    var arguments: [String] = []
}

/// Forwards to `geonews-news search`.
struct SearchForwarder: ForwardedNewsCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search news articles."
    )

    @Argument(parsing: .captureForPassthrough, help: "See `geonews search --help`.")
    var arguments: [String] = []
}

/// Forwards to `geonews-news sources`.
struct SourcesForwarder: ForwardedNewsCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List NewsAPI's news sources (needs NEWSAPI_KEY)."
    )

    @Argument(parsing: .captureForPassthrough, help: "See `geonews sources --help`.")
    var arguments: [String] = []
}

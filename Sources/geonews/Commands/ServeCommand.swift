import ArgumentParser
import GeoNewsCommandLine

/// `geonews serve …`: hands its arguments, unparsed, to `geonews-serve` beside this
/// executable, so that `geonews` itself links no HTTP server or SQLite.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API: geonews serve [--host 127.0.0.1] [--port 8080] [--state-dir DIR] [--cors-origin ORIGIN]."
    )

    @Argument(parsing: .captureForPassthrough, help: "See `geonews serve --help`.")
    var arguments: [String] = []

    func run() throws {
        let error = NewsExecutable.replaceProcess(arguments: arguments, executable: "geonews-serve")
        throw fail("\(error)", .unavailable)
    }
}

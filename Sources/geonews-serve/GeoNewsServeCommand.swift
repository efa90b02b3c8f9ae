import ArgumentParser

/// `geonews-serve`: serves the API (the default, ``ServerCommand``) or runs an operator's
/// command on the state directory (`tokens revoke`).
struct GeoNewsServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonews-serve",
        abstract: "Serve the GeoNews HTTP API, or manage its state directory.",
        subcommands: [ServerCommand.self, TokensCommand.self],
        defaultSubcommand: ServerCommand.self
    )
}

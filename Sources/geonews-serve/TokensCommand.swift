import ArgumentParser
import Foundation
import GeoNewsCommandLine
import GeoNewsServer
import Logging

/// `geonews-serve tokens revoke`: an operator's way to stop a leaked or abused token.
struct TokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Manage the users' bearer tokens in the state directory.",
        subcommands: [Revoke.self]
    )

    /// The server's options, `--state-dir` among them, which may come before or after
    /// `tokens revoke`.
    @ParentCommand var server: ServerCommand

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a user's token; the server answers it 401 from its next request on.",
            discussion: """
                Opens the state database of --state-dir directly (the server may be running), or the \
                PostgreSQL database of --store or $GEONEWS_STORE when one is given. The user's \
                favourites, settings and datasets are kept; the datasets stay readable by id. \
                Prints one line per user revoked. Exit codes: 0 revoked, 64 bad argument or an \
                ambiguous prefix, 66 no state database there or no such token, 74 the database \
                is unusable.
                """
        )

        @Argument(
            help: ArgumentHelp(
                "The user's id, the whole token, or its first 11 characters (gn_ and 8 hex digits).", valueName: "user-or-token"))
        var selector: String

        @ParentCommand var tokens: TokensCommand

        func run() async throws {
            let directory = tokens.server.stateDir.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultStateDirectory()
            let postgres = try ServerCommand.postgres(tokens.server.store ?? ProcessInfo.processInfo.environment["GEONEWS_STORE"])
            do {
                let revoked =
                    if let postgres {
                        try await TokenRevocation.revoke(selector, postgres: postgres, logger: Logger(label: "geonews-serve"))
                    } else {
                        try TokenRevocation.revoke(selector, stateDirectory: directory)
                    }
                for user in revoked { print("revoked the token of user \(user)") }
            } catch {
                switch error {
                case .badSelector, .ambiguous: throw fail(error.description, .usage)
                case .noDatabase, .noSuchToken: throw fail(error.description, .noInput)
                case .store: throw fail(error.description, .ioError)
                }
            }
        }
    }
}

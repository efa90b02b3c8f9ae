import GeoNewsBoundaries
import GeoNewsData

/// Loads the resolver on the second core while ArgumentParser parses the command line.
///
/// A cold start of `geonews --lat … --lon …` spends about as long verifying and mapping the
/// country index and reading the catalogue as it does parsing its arguments; the two are
/// independent, so they overlap. Started only for the default (locate) command with no
/// `--data` option, and only when the data directory is found the default way; the command
/// takes the result only if it asks for exactly that resolver.
///
/// The load is a task the command awaits, so nothing waits on a semaphore and no thread is
/// blocked. `main` binds the preload it started to ``started`` around the whole run: a
/// task-local value, set once for that scope, not a variable any thread can write.
struct ResolverPreload: Sendable {
    private let load: Task<Result<CountryResolver, DataError>, Never>

    /// The preload `main` started for this run, if it started one.
    @TaskLocal static var started: ResolverPreload?

    /// A preload under way when the arguments are the default command's, else `nil`.
    static func start(arguments: [String], subcommands: [String]) -> ResolverPreload? {
        guard let first = arguments.first, !subcommands.contains(first),
            !arguments.contains(where: { $0 == "--data" || $0.hasPrefix("--data=") || $0 == "-h" || $0 == "--help" })
        else { return nil }
        return ResolverPreload(
            load: Task.detached {
                Result { () throws(DataError) -> CountryResolver in
                    try CountryResolver.load(from: DataDirectory.locate(), options: .singlePosition)
                }
            })
    }

    /// The preloaded resolver (or the error loading it met), once loaded.
    var resolver: Result<CountryResolver, DataError> {
        get async { await load.value }
    }
}

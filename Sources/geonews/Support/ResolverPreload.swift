import Foundation
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsGeodesy

/// Loads the resolver on the second core while ArgumentParser parses the command line.
///
/// A cold start of `geonews --lat … --lon …` spends about as long verifying and mapping the
/// country index and reading the catalogue as it does parsing its arguments; the two are
/// independent, so they overlap. Started only for the default (locate) command with no
/// `--data` option, and only when the data directory is found the default way; the command
/// takes the result only if it asks for exactly that resolver.
final class ResolverPreload: @unchecked Sendable {
    // Sendable: `result` is written once by the loading thread before `finished` is
    // signalled, and read only after waiting on it.
    private let finished = DispatchSemaphore(value: 0)
    private var result: Result<CountryResolver, DataError>?

    /// The preload under way, if `main` started one.
    nonisolated(unsafe) static var current: ResolverPreload?

    /// Starts a preload when the arguments are the default command's.
    static func start(arguments: [String], subcommands: [String]) {
        guard let first = arguments.first, !subcommands.contains(first),
              !arguments.contains(where: { $0 == "--data" || $0.hasPrefix("--data=") || $0 == "-h" || $0 == "--help" })
        else { return }
        let preload = ResolverPreload()
        current = preload
        Thread.detachNewThread {
            preload.result = Result { () throws(DataError) -> CountryResolver in
                try CountryResolver.load(from: DataDirectory.locate())
            }
            preload.finished.signal()
        }
    }

    /// The preloaded resolver (or the error loading it met), waiting for it if needed.
    func wait() -> Result<CountryResolver, DataError> {
        finished.wait()
        finished.signal()
        return result!
    }
}

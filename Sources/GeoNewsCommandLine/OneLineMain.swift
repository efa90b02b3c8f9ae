import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

extension ParsableCommand {
    /// Parses `arguments` and runs the chosen command like ArgumentParser's own `main`, but keeps
    /// a failure to one line on standard error (the message names the flag or value) with the
    /// documented exit code. Help and version requests print in full and exit 0.
    public static func runReportingOneLine(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
            Glibc.exit(0)
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

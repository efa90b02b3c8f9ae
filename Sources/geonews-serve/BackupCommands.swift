import ArgumentParser
import Foundation
import GeoNewsCommandLine
import GeoNewsServer
import GeoNewsStore

/// `geonews-serve backup --to FILE`: a consistent copy of the SQLite store of `--state-dir`,
/// taken while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the state database of --state-dir to a new file, consistently, while the server runs.",
        discussion: """
            SQLite's online backup of one snapshot: every write committed before it began, none \
            half-done. The copy is checked (integrity and GeoNews's tables) and is one file; an \
            existing file is never replaced. The datasets' files (datasets/ in the state \
            directory) are not in it: copy that folder after the backup. A PostgreSQL store \
            (--store) is backed up with pg_dump (docs/operations.md). Exit codes: 0 copied, \
            64 bad usage, 66 no state database there, 73 the file exists or its folder does not, \
            74 reading or writing failed.
            """
    )

    @ParentCommand var server: ServerCommand

    @Option(help: ArgumentHelp("The backup file to create (its folder must exist; it must not).", valueName: "file"))
    var to: String

    func run() throws {
        if server.store ?? ProcessInfo.processInfo.environment["GEONEWS_STORE"] != nil {
            throw fail("the PostgreSQL store of --store or GEONEWS_STORE is backed up with pg_dump, not here (docs/operations.md)", .usage)
        }
        let directory = server.stateDir.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultStateDirectory()
        do {
            let copied = try SQLiteBackup.backup(stateDirectory: directory, to: URL(fileURLWithPath: to))
            print("backed up \(directory.path) to \(to): \(copied.describedForPeople)")
        } catch {
            throw fail(error.description, error.exitStatus)
        }
    }
}

/// `geonews-serve restore --from FILE`: a backup put into an empty `--state-dir`.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup into an empty or new state directory (--state-dir).",
        discussion: """
            The backup must pass SQLite's integrity check and hold GeoNews's tables; it is copied \
            to the state directory's database and opened as the server opens it (migrations \
            included). A state directory that is not empty is refused, so nothing is overwritten. \
            Exit codes: 0 restored, 64 bad usage, 65 the file is not a GeoNews store or is \
            damaged, 66 no such file, 73 the state directory is not empty, 74 reading or writing \
            failed.
            """
    )

    @ParentCommand var server: ServerCommand

    @Option(help: ArgumentHelp("The backup file to restore.", valueName: "file"))
    var from: String

    func run() throws {
        if server.store ?? ProcessInfo.processInfo.environment["GEONEWS_STORE"] != nil {
            throw fail(
                "the PostgreSQL store of --store or GEONEWS_STORE is restored with pg_restore, not here (docs/operations.md)", .usage)
        }
        let directory = server.stateDir.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultStateDirectory()
        do {
            let restored = try SQLiteBackup.restore(from: URL(fileURLWithPath: from), into: directory)
            print("restored \(from) into \(directory.path): \(restored.describedForPeople)")
        } catch {
            throw fail(error.description, error.exitStatus)
        }
    }
}

extension SQLiteBackup.Failure {
    /// The documented exit code of each failure.
    var exitStatus: ExitStatus {
        switch self {
        case .missing: .noInput
        case .cannotCreate: .cannotCreate
        case .notAStore: .dataError
        case .failed: .ioError
        }
    }
}

extension SQLiteBackup.Summary {
    var describedForPeople: String {
        "\(users) users, \(favourites) favourites, \(datasets) datasets, \(pages * pageSize) bytes"
    }
}

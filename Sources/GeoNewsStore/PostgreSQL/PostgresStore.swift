import Foundation
import Logging
import PostgresNIO

/// The server's persistent state in PostgreSQL, shared by every `geonews-serve` instance that
/// names the same database: users, favourites, settings, and the datasets with their points.
///
/// Calls run on a pool of connections (postgres-nio's `PostgresClient`), each within
/// ``callSeconds``; a database that is down, refuses or does not answer in time throws
/// ``StoreError/unavailable(_:)``, and the pool reconnects by itself once it is back.
/// Conflicting writes from several instances are settled by PostgreSQL's row locks and unique
/// constraints (see each method).
public final class PostgresStore: ServerStore {
    /// Seconds one store call may take, the wait for a connection included.
    public static let callSeconds: Int64 = 5
    /// Seconds a new connection may take (TCP, TLS and authentication).
    static let connectSeconds: Int64 = 3
    /// Connections the pool opens at most, per instance.
    static let maximumConnections = 8

    public let location: PostgresLocation
    let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>

    private init(location: PostgresLocation, client: PostgresClient, logger: Logger) {
        self.location = location
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    /// Connects once to check the address, the password and the database, brings the schema
    /// up to date (once, however many instances start together), then opens the pool.
    ///
    /// - Throws: ``StoreError/badLocation(_:)`` for TLS settings that cannot be used,
    ///   ``StoreError/unavailable(_:)`` naming what went wrong (no server at the address, the
    ///   password refused, no such database), with the password never in it.
    public static func open(_ location: PostgresLocation, logger: Logger) async throws(StoreError) -> PostgresStore {
        let single = try location.connectionConfiguration(connectSeconds: connectSeconds, statementSeconds: callSeconds * 6)
        do {
            // Migrations may wait for another instance's; the deadline covers the wait too.
            try await CallDeadline.run(seconds: callSeconds * 6) {
                let connection = try await PostgresConnection.connect(configuration: single, id: 1, logger: logger)
                do {
                    try await PostgresSchema.migrate(connection, logger: logger)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            }
        } catch {
            throw .unavailable(startFailure(error, location))
        }
        let configuration = try location.clientConfiguration(
            connections: maximumConnections, connectSeconds: connectSeconds, statementSeconds: callSeconds)
        return PostgresStore(
            location: location, client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger)
    }

    public func ping() async throws(StoreError) {
        _ = try await call { try await self.client.query("SELECT 1", logger: self.logger).collect() }
    }

    /// Cancels the pool's task and waits for it at most ``callSeconds``: a pool still trying
    /// to reach a server that went away must not hold the server's shutdown.
    public func close() async {
        runner.cancel()
        let runner = self.runner
        _ = try? await CallDeadline.run(seconds: Self.callSeconds) { await runner.value }
    }

    /// Whether the datasets' points are in the database: yes, so that every instance can load them.
    public var sharesDatasetPoints: Bool { true }

    /// Runs `body` on one pooled connection within ``callSeconds``.
    func call<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws(StoreError) -> T {
        do {
            return try await CallDeadline.run(seconds: Self.callSeconds, body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs `body` in one transaction (READ COMMITTED) within ``callSeconds``; committed
    /// before it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(StoreError) -> T {
        try await call { try await self.client.withTransaction(logger: self.logger) { try await body($0) } }
    }

    /// The rows of `query`, decoded, on one pooled connection within ``callSeconds``.
    func rows<each Column: PostgresDecodable & Sendable>(
        _ query: PostgresQuery, as columns: (repeat each Column).Type
    ) async throws(StoreError)
        -> [(repeat each Column)]
    {
        try await call {
            var found: [(repeat each Column)] = []
            for try await row in try await self.client.query(query, logger: self.logger).decode(columns) { found.append(row) }
            return found
        }
    }

    /// What a failure means to a caller: the database out of reach (retry later) or a query
    /// that failed.
    static func storeError(_ error: any Error) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as PostgresTransactionError:
            return storeError(
                error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
                    ?? StoreError.failed("a transaction failed"))
        case let error as DeadlinePassed:
            return .unavailable("PostgreSQL did not answer within \(error.seconds) seconds")
        case let error as PSQLError:
            guard error.code == .server, let state = error.serverInfo?[.sqlState] else {
                return .unavailable("the connection to PostgreSQL failed (\(error.code))")
            }
            let message = error.serverInfo?[.message] ?? ""
            // 08: connection exceptions; 53: insufficient resources (too many connections);
            // 57: an operator's or the server's shutdown, a statement past its timeout.
            if state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57") {
                return .unavailable("PostgreSQL \(state): \(message)")
            }
            return .failed("PostgreSQL \(state): \(message)")
        case is CancellationError:
            return .unavailable("the call was cancelled")
        default:
            return .failed(String(describing: type(of: error)))
        }
    }

    /// One line for an operator on why the first connection failed; the password is never in it.
    static func startFailure(_ error: any Error, _ location: PostgresLocation) -> String {
        let place = "PostgreSQL at \(location.host):\(location.port)"
        if let error = error as? PSQLError {
            switch (error.code, error.serverInfo?[.sqlState]) {
            case (.server, "28P01"?):
                return "\(place) refused the password of user '\(location.username)' (\(location))"
            case (.server, "28000"?):
                return "\(place) does not let user '\(location.username)' in: \(error.serverInfo?[.message] ?? "")"
            case (.server, "3D000"?):
                return "\(place) has no database '\(location.database)' (\(location))"
            case (.server, let state?):
                return "\(place) answered \(state): \(error.serverInfo?[.message] ?? "") (\(location))"
            case (.sslUnsupported, _):
                return "\(place) does not offer TLS, and sslmode=\(location.tls.rawValue) requires it"
            case (.authMechanismRequiresPassword, _):
                return "\(place) asks for a password and \(location) has none"
            case (.connectionError, _):
                let reason = error.underlying.map { "\($0)" } ?? "no answer"
                return "cannot connect to \(place): \(reason)"
            default:
                return "cannot use \(place): \(error.code)"
            }
        }
        if let error = error as? DeadlinePassed {
            return "\(place) did not answer within \(error.seconds) seconds (\(location))"
        }
        return "cannot use \(place): \(storeError(error))"
    }
}

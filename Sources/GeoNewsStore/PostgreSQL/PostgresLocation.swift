import Foundation
import PostgresNIO

/// Where a ``PostgresStore`` connects: `postgres://user:password@host:port/database`, with an
/// optional `?sslmode=` (`disable`, the default, `prefer`, `require`, `verify-ca`,
/// `verify-full`) and `sslrootcert=` (a PEM file of the certificate authorities to trust).
///
/// Its ``description`` is the address with the password replaced by `***`: the one form that
/// may appear in a message or a log.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq's `sslmode` names it.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var host: String
    /// 1…65535; 5432 when the address has none.
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The PEM file of trusted certificate authorities (`sslrootcert=`), else the system's.
    public var rootCertificates: String?

    /// Whether `text` is meant as a PostgreSQL address (its scheme is `postgres` or `postgresql`).
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads `text`; throws ``StoreError/badLocation(_:)`` naming the part that is wrong, with
    /// any password in it replaced by `***`.
    public init(parsing text: String) throws(StoreError) {
        let shown = Self.redacted(text)
        guard Self.isPostgres(text), let parts = URLComponents(string: text) else {
            throw .badLocation("'\(shown)' is not of the form postgres://user:password@host:port/database[?sslmode=require]")
        }
        guard let host = parts.host, !host.isEmpty else { throw .badLocation("'\(shown)' names no host") }
        guard let username = parts.user, !username.isEmpty else { throw .badLocation("'\(shown)' names no user") }
        let database = String(parts.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw .badLocation("'\(shown)' names no database (…/database after the host)")
        }
        let port = parts.port ?? 5432
        guard (1...65535).contains(port) else { throw .badLocation("'\(shown)': port \(port) is outside 1…65535") }
        var tls = TLSMode.disable
        var rootCertificates: String?
        for item in parts.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .badLocation("'\(shown)': sslmode '\(item.value ?? "")' is not one of \(modes)")
                }
                tls = mode
            case "sslrootcert":
                guard let path = item.value, !path.isEmpty else { throw .badLocation("'\(shown)': sslrootcert names no file") }
                rootCertificates = path
            default:
                throw .badLocation("'\(shown)': the parameter '\(item.name)' is not known (sslmode and sslrootcert are)")
            }
        }
        self.host = host
        self.port = port
        self.username = username
        self.password = parts.password
        self.database = database
        self.tls = tls
        self.rootCertificates = rootCertificates
    }

    /// The address with the password as `***`.
    public var description: String {
        var query: [String] = []
        if tls != .disable { query.append("sslmode=\(tls.rawValue)") }
        if let rootCertificates { query.append("sslrootcert=\(rootCertificates)") }
        let secret = password == nil ? "" : ":***"
        return "postgres://\(username)\(secret)@\(host):\(port)/\(database)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// `text` with whatever stands between `scheme://user:` and the last `@` of the authority
    /// replaced by `***`, for a text that may not even parse.
    static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }

    /// The pool's configuration: at most `connections`, each connecting within
    /// `connectSeconds`, with statements the server itself cancels past `statementSeconds`.
    func clientConfiguration(
        connections: Int, connectSeconds: Int64, statementSeconds: Int64
    ) throws(StoreError)
        -> PostgresClient.Configuration
    {
        let tls: PostgresClient.Configuration.TLS =
            switch try tlsConfiguration() {
            case nil: .disable
            case let context? where self.tls == .prefer: .prefer(context)
            case let context?: .require(context)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(connectSeconds)
        configuration.options.maximumConnections = connections
        configuration.options.additionalStartupParameters = Self.startupParameters(statementSeconds: statementSeconds)
        return configuration
    }

    /// One connection's configuration, for the checks and migrations at start.
    func connectionConfiguration(connectSeconds: Int64, statementSeconds: Int64) throws(StoreError) -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        do {
            tls =
                switch try tlsConfiguration() {
                case nil: .disable
                case let context? where self.tls == .prefer: .prefer(try NIOSSLContext(configuration: context))
                case let context?: .require(try NIOSSLContext(configuration: context))
                }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .badLocation("the TLS settings cannot be used: \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(connectSeconds)
        configuration.options.additionalStartupParameters = Self.startupParameters(statementSeconds: statementSeconds)
        return configuration
    }

    private static func startupParameters(statementSeconds: Int64) -> [(String, String)] {
        [("statement_timeout", "\(statementSeconds * 1000)"), ("application_name", "geonews-serve")]
    }

    /// The TLS settings `sslmode` asks for; `nil` for none.
    private func tlsConfiguration() throws(StoreError) -> TLSConfiguration? {
        guard tls != .disable else { return nil }
        var context = TLSConfiguration.makeClientConfiguration()
        if let rootCertificates {
            guard FileManager.default.isReadableFile(atPath: rootCertificates) else {
                throw .badLocation("sslrootcert '\(rootCertificates)' cannot be read")
            }
            context.trustRoots = .file(rootCertificates)
        }
        switch tls {
        case .disable, .prefer, .require:
            // As libpq: encrypted, the certificate not checked.
            context.certificateVerification = .none
        case .verifyCA:
            context.certificateVerification = .noHostnameVerification
        case .verifyFull:
            context.certificateVerification = .fullVerification
        }
        return context
    }
}

import Foundation
import GeoNewsStore
import Logging
import PostgresNIO
import XCTest

/// The shared behaviour (``StoreBehaviour``) on PostgreSQL: each test on a database of its own,
/// two stores (two pools) on it standing for two instances. Runs when
/// `GEONEWS_TEST_POSTGRES_URL` names a server (Tests/Postgres/start.sh starts one); skips
/// otherwise, and Scripts/test fails a run with skipped tests.
final class PostgresStoreTests: XCTestCase {
    static let logger = Logger(label: "geonews-store-tests")

    /// The server's address, or a skip.
    static func baseLocation() throws -> PostgresLocation {
        guard let text = ProcessInfo.processInfo.environment["GEONEWS_TEST_POSTGRES_URL"], !text.isEmpty else {
            throw XCTSkip("GEONEWS_TEST_POSTGRES_URL is not set (Tests/Postgres/start.sh starts a PostgreSQL)")
        }
        return try PostgresLocation(parsing: text)
    }

    /// Runs `statement` on the base database (CREATE or DROP DATABASE).
    static func administer(_ location: PostgresLocation, _ statement: String) async throws {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    private var opened: [any ServerStore] = []
    private var databases: [String] = []

    /// A new, empty database on the test server.
    func freshDatabase() async throws -> PostgresLocation {
        var location = try Self.baseLocation()
        location.database = "geonews_\(UUID().uuidString.prefix(8).lowercased())"
        try await Self.administer(try Self.baseLocation(), "CREATE DATABASE \(location.database)")
        databases.append(location.database)
        return location
    }

    func open(_ location: PostgresLocation) async throws -> PostgresStore {
        let store = try await PostgresStore.open(location, logger: Self.logger)
        opened.append(store)
        return store
    }

    override func tearDown() async throws {
        for store in opened { await store.close() }
        opened = []
        if let base = try? Self.baseLocation() {
            for database in databases { try? await Self.administer(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        }
        databases = []
    }

    private var behaviour: StoreBehaviour {
        get throws {
            try StoreBehaviour {
                let location = try await self.freshDatabase()
                return (try await self.open(location), try await self.open(location))
            }
        }
    }

    func testUsersAreFoundByTokenHashAndKnownToTheOtherInstance() async throws {
        try await behaviour.usersAreFoundByTokenHashAndKnownToTheOtherInstance()
    }

    func testRevokingByPrefixOrIdMarksTheTokenAndRefusesAnAmbiguousPrefix() async throws {
        try await behaviour.revokingByPrefixOrIdMarksTheTokenAndRefusesAnAmbiguousPrefix()
    }

    func testFavouritesAreSavedOnceAndComeInPagesNewestFirst() async throws {
        try await behaviour.favouritesAreSavedOnceAndComeInPagesNewestFirst()
    }

    func testConcurrentDuplicateSavesFromTwoInstancesMakeOneFavourite() async throws {
        try await behaviour.concurrentDuplicateSavesFromTwoInstancesMakeOneFavourite()
    }

    func testSettingsUpdatesAreWholeAndTheLastCommittedWins() async throws {
        try await behaviour.settingsUpdatesAreWholeAndTheLastCommittedWins()
    }

    func testDatasetsAreListedByOwnerAndHeldToTheQuota() async throws {
        try await behaviour.datasetsAreListedByOwnerAndHeldToTheQuota()
    }

    func testConcurrentUploadsFromTwoInstancesStayWithinTheQuota() async throws {
        try await behaviour.concurrentUploadsFromTwoInstancesStayWithinTheQuota()
    }

    func testDeletingAUserTakesItsFavouritesSettingsAndDatasets() async throws {
        try await behaviour.deletingAUserTakesItsFavouritesSettingsAndDatasets()
    }

    func testPingAnswers() async throws {
        try await behaviour.pingAnswers()
    }

    /// Eight instances starting together on an empty database: each migration applied once,
    /// and every instance works.
    func testMigrationsRunOnceWhenInstancesStartTogether() async throws {
        let location = try await freshDatabase()
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<8 { group.addTask { try await PostgresStore.open(location, logger: Self.logger) } }
            return try await group.reduce(into: [PostgresStore]()) { $0.append($1) }
        }
        opened += stores as [any ServerStore]
        XCTAssertEqual(stores.count, 8)
        for (n, store) in stores.enumerated() {
            _ = try await store.createUser(tokenHash: Data(repeating: UInt8(n), count: 32), tokenPrefix: "gn_0000000\(n)")
        }
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.logger)
        var applied: [String] = []
        for try await name in try await connection.query("SELECT name FROM geonews_migration", logger: Self.logger).decode(String.self) {
            applied.append(name)
        }
        try await connection.close()
        XCTAssertEqual(applied, ["v1: users, favourites, settings, datasets"])
    }

    func testAWrongPasswordIsOneLineWithoutThePassword() async throws {
        var location = try await freshDatabase()
        location.password = "not-the-password-\(UUID().uuidString)"
        do {
            _ = try await PostgresStore.open(location, logger: Self.logger)
            XCTFail("opened with a wrong password")
        } catch .unavailable(let reason) {
            XCTAssertTrue(reason.contains("refused the password of user '\(location.username)'"), reason)
            XCTAssertFalse(reason.contains(location.password ?? ""), "the password is shown: \(reason)")
            XCTAssertTrue(reason.contains("***"), reason)
            XCTAssertFalse(reason.contains("\n"))
        } catch {
            XCTFail("\(error)")
        }
    }

    func testNoSuchDatabaseIsNamed() async throws {
        var location = try Self.baseLocation()
        location.database = "geonews_absent_\(UUID().uuidString.prefix(8).lowercased())"
        do {
            _ = try await PostgresStore.open(location, logger: Self.logger)
            XCTFail("opened a database that does not exist")
        } catch .unavailable(let reason) {
            XCTAssertTrue(reason.contains("has no database '\(location.database)'"), reason)
            XCTAssertFalse(reason.contains(location.password ?? "\u{0}"), reason)
        } catch {
            XCTFail("\(error)")
        }
    }
}

import Logging
import XCTest

@testable import GeoNewsStore

/// `--store` addresses: what is read from them, and one line naming what is wrong with a bad
/// one, never with its password.
final class PostgresLocationTests: XCTestCase {
    func testAFullAddressIsRead() throws {
        let location = try PostgresLocation(parsing: "postgres://geo%40news:s3cr%2Ft@db.example.org:6543/geonews?sslmode=verify-full")
        XCTAssertEqual(location.username, "geo@news")
        XCTAssertEqual(location.password, "s3cr/t")
        XCTAssertEqual(location.host, "db.example.org")
        XCTAssertEqual(location.port, 6543)
        XCTAssertEqual(location.database, "geonews")
        XCTAssertEqual(location.tls, .verifyFull)
        XCTAssertEqual(location.description, "postgres://geo@news:***@db.example.org:6543/geonews?sslmode=verify-full")
    }

    func testDefaultsArePort5432AndNoTLS() throws {
        let location = try PostgresLocation(parsing: "postgresql://geonews@127.0.0.1/geonews")
        XCTAssertEqual(location.port, 5432)
        XCTAssertNil(location.password)
        XCTAssertEqual(location.tls, .disable)
        XCTAssertEqual(location.description, "postgres://geonews@127.0.0.1:5432/geonews")
    }

    func testEachMalformedAddressNamesItsFaultWithoutThePassword() {
        let cases: [(String, String)] = [
            ("postgres://user:hunter2@/geonews", "names no host"),
            ("postgres://:hunter2@host/geonews", "names no user"),
            ("postgres://user:hunter2@host", "names no database"),
            ("postgres://user:hunter2@host:70000/geonews", "70000"),
            ("postgres://user:hunter2@host:0/geonews", "port 0 is outside 1…65535"),
            ("postgres://user:hunter2@host/geonews?sslmode=always", "sslmode 'always' is not one of disable, prefer, require"),
            ("postgres://user:hunter2@host/geonews?timeout=3", "the parameter 'timeout' is not known"),
            ("mysql://user:hunter2@host/geonews", "is not of the form postgres://"),
            ("postgres://user:hunter2@host/geonews?sslmode=require&sslrootcert=/nonexistent/ca.pem", "sslrootcert"),
        ]
        for (text, expected) in cases {
            do {
                let location = try PostgresLocation(parsing: text)
                // sslrootcert is checked when the connection's TLS is configured.
                XCTAssertEqual(expected, "sslrootcert", "\(text) was accepted as \(location)")
            } catch .badLocation(let reason) {
                XCTAssertTrue(reason.contains(expected), "\(text): \(reason)")
                XCTAssertFalse(reason.contains("hunter2"), "the password is shown: \(reason)")
                XCTAssertFalse(reason.contains("\n"), reason)
            } catch {
                XCTFail("\(text): \(error)")
            }
        }
    }

    func testAnUnreadableRootCertificateIsRefusedAtOpen() async {
        do {
            let location = try PostgresLocation(
                parsing: "postgres://u:hunter2@127.0.0.1:1/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")
            _ = try await PostgresStore.open(location, logger: .init(label: "test"))
            XCTFail("opened")
        } catch .badLocation(let reason) {
            XCTAssertTrue(reason.contains("sslrootcert '/nonexistent/ca.pem' cannot be read"), reason)
        } catch {
            XCTFail("\(error)")
        }
    }

    /// Nothing listens on the port: one line naming the address, quickly.
    func testAnUnreachableServerIsNamed() async {
        do {
            let location = try PostgresLocation(parsing: "postgres://u:hunter2@127.0.0.1:1/db")
            _ = try await PostgresStore.open(location, logger: .init(label: "test"))
            XCTFail("opened")
        } catch .unavailable(let reason) {
            XCTAssertTrue(reason.hasPrefix("cannot connect to PostgreSQL at 127.0.0.1:1"), reason)
            XCTAssertFalse(reason.contains("hunter2"), reason)
        } catch {
            XCTFail("\(error)")
        }
    }
}

final class CallDeadlineTests: XCTestCase {
    /// A call that does not answer returns at its deadline, not when it ends.
    func testACallPastItsDeadlineReturnsAtTheDeadline() async {
        let started = ContinuousClock.now
        do {
            try await CallDeadline.run(seconds: 1) { try await Task.sleep(for: .seconds(30)) }
            XCTFail("the call returned")
        } catch {
            XCTAssertTrue(error is DeadlinePassed, "\(error)")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
    }

    /// Nor when the work ignores cancellation.
    func testAWorkThatIgnoresCancellationIsAbandoned() async {
        let started = ContinuousClock.now
        do {
            try await CallDeadline.run(seconds: 1) {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: 20)
                        continuation.resume()
                    }
                }
            }
            XCTFail("the call returned")
        } catch {
            XCTAssertTrue(error is DeadlinePassed, "\(error)")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
    }
}

import Foundation
import GeoNewsServer
import XCTest

/// The server's settings are checked in one place, `ServerConfiguration.validate()`, which the
/// command line and `GeoNewsAPI.run` both call, and their defaults are stated once there.
final class ServerConfigurationTests: XCTestCase {
    func testTheDefaultsAreValid() throws {
        let defaults = ServerConfiguration.defaults
        XCTAssertNoThrow(try defaults.validate())
        XCTAssertEqual(defaults.host, "127.0.0.1")
        XCTAssertEqual(defaults.port, 8080)
    }

    func testEveryValueOutOfItsRangeIsRefusedByName() {
        let cases: [(WritableKeyPath<ServerConfiguration, Int>, Int, String)] = [
            (\.port, 65_536, "port 65536 is outside 0…65535"),
            (\.port, -1, "port -1 is outside 0…65535"),
            (\.maximumBodyBytes, 0, "max body bytes 0 must be above 0"),
            (\.bodyMinimumRate, -1, "body min rate -1 must be 0 or more bytes per second"),
            (\.quotaPoints, 0, "quota points 0 must be above 0"),
            (\.quotaBytes, -5, "quota bytes -5 must be above 0"),
            (\.maximumUploadPoints, Int(Int32.max) + 1, "max upload points 2147483648 is outside 1…2147483647"),
            (\.maximumDatasetBytes, 0, "max dataset bytes 0 must be above 0"),
            (\.mappedDatasetBudget, 0, "mapped dataset budget 0 must be above 0"),
            (\.maximumConcurrentDatasetBuilds, 65, "max concurrent dataset builds 65 is outside 1…64"),
            (\.writeBurst, 0, "write burst 0 is outside 1…1000000"),
            (\.trackedAddresses, 10_000_001, "tracked addresses 10000001 is outside 1…10000000"),
        ]
        for (field, value, message) in cases {
            var configuration = ServerConfiguration.defaults
            configuration[keyPath: field] = value
            XCTAssertThrowsError(try configuration.validate(), message) { error in
                XCTAssertEqual((error as? ServerConfiguration.Refusal)?.description, message)
            }
        }
        let seconds: [(WritableKeyPath<ServerConfiguration, Int64>, Int64, String)] = [
            (\.idleTimeoutSeconds, 0, "idle timeout 0 must be above 0 seconds"),
            (\.headerTimeoutSeconds, -1, "header timeout -1 must be above 0 seconds"),
            (\.bodyTimeoutSeconds, 0, "body timeout 0 must be above 0 seconds"),
            (\.shutdownTimeoutSeconds, 0, "shutdown timeout 0 must be above 0 seconds"),
            (\.datasetBuildWaitSeconds, 3_601, "dataset build wait 3601 is outside 0…3600 seconds"),
        ]
        for (field, value, message) in seconds {
            var configuration = ServerConfiguration.defaults
            configuration[keyPath: field] = value
            XCTAssertThrowsError(try configuration.validate(), message) { error in
                XCTAssertEqual((error as? ServerConfiguration.Refusal)?.description, message)
            }
        }
        var rate = ServerConfiguration.defaults
        rate.writesPerSecond = 0
        XCTAssertThrowsError(try rate.validate())
        var origin = ServerConfiguration.defaults
        origin.corsOrigin = "map.example.org"
        XCTAssertThrowsError(try origin.validate()) { error in
            XCTAssertEqual("\(error)", "CORS origin 'map.example.org' is not of the form scheme://host[:port]")
        }
    }

    /// The command line reports the configuration's refusal as one line and exit 64, and its
    /// help shows the configuration's defaults.
    func testTheCommandLineSaysTheRefusalAndShowsTheDefaults() throws {
        let serve = ServerProcess.executable.path
        guard FileManager.default.isExecutableFile(atPath: serve) else { throw XCTSkip("geonews-serve is not built") }
        var environment = ProcessInfo.processInfo.environment
        environment["GEONEWS_DATA"] = ServerProcess.packageRoot.appendingPathComponent("Data").path
        let state = ServerProcess.newStateDirectory().path
        for (arguments, message) in [
            (["--port", "70000"], "port 70000 is outside 0…65535"),
            (["--write-burst", "0"], "write burst 0 is outside 1…1000000"),
            (["--dataset-build-wait", "7200"], "dataset build wait 7200 is outside 0…3600 seconds"),
            (
                ["--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "proxy.example.org"],
                "trusted proxy 'proxy.example.org' is not an address"
            ),
            (["--access-log", ""], "access log '' is not a file path"),
        ] {
            let run = try SharedStoreTests.run(serve, arguments + ["--state-dir", state], environment: environment)
            XCTAssertEqual(run.status, 64, run.output)
            XCTAssertEqual(run.output.split(separator: "\n").count, 1, run.output)
            XCTAssertTrue(run.output.contains(message), run.output)
        }
        let help = try SharedStoreTests.run(serve, ["--help"], environment: environment)
        XCTAssertEqual(help.status, 0)
        let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for shown in ["(default: 8080)", "(default: 127.0.0.1)", "(default: 30)", "(default: 90d)", "(default: 10000)"] {
            XCTAssertTrue(text.contains(shown), "\(shown) in\n\(help.output)")
        }
    }

    /// `GEONEWS_TRUSTED_PROXIES` (what `/etc/default/geonews` sets) gives the proxies when no
    /// `--trusted-proxy` does; a block in it that does not parse is refused like the option's,
    /// and an access log in a folder that does not exist stops the start with one line and 74.
    func testTrustedProxiesComeFromTheEnvironmentAndTheAccessLogNamesTheirClients() async throws {
        let folder = ServerProcess.newStateDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("access.log")
        let server = try ServerProcess(
            arguments: ["--access-log", log.path], environment: ["GEONEWS_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1/32 ::1"])
        let resolved = try await server.get("/v1/resolve?lat=48.85&lon=2.35", headers: ["X-Forwarded-For": "198.51.100.7"])
        XCTAssertEqual(resolved.status, 200)
        let listed = try await server.get("/v1/countries", headers: ["Forwarded": "for=\"[2001:db8::5]:4711\""])
        XCTAssertEqual(listed.status, 200)
        XCTAssertEqual(server.stop(), 0)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertTrue(lines[0].hasPrefix("198.51.100.7 - - ["), String(lines[0]))
        XCTAssertTrue(lines[0].contains(#""GET /v1/resolve?lat=48.85&lon=2.35 HTTP/1.1" 200 "#), String(lines[0]))
        XCTAssertTrue(lines[1].hasPrefix("2001:db8::5 - - ["), String(lines[1]))

        let serve = ServerProcess.executable.path
        var environment = ProcessInfo.processInfo.environment
        environment["GEONEWS_DATA"] = ServerProcess.packageRoot.appendingPathComponent("Data").path
        environment["GEONEWS_TRUSTED_PROXIES"] = "10.0.0.0/8 proxy.example.org"
        let state = folder.appendingPathComponent("state").path
        let refused = try SharedStoreTests.run(serve, ["--state-dir", state], environment: environment)
        XCTAssertEqual(refused.status, 64, refused.output)
        XCTAssertTrue(refused.output.contains("trusted proxy 'proxy.example.org' is not an address"), refused.output)
        environment["GEONEWS_TRUSTED_PROXIES"] = nil
        let missing = folder.appendingPathComponent("no/such/access.log").path
        let unopened = try SharedStoreTests.run(
            serve, ["--state-dir", state, "--port", "0", "--access-log", missing], environment: environment)
        XCTAssertEqual(unopened.status, 74, unopened.output)
        XCTAssertEqual(unopened.output.split(separator: "\n").count, 1, unopened.output)
        XCTAssertTrue(unopened.output.contains("the access log \(missing) cannot be opened for appending: No such file or directory"))
    }
}

import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` while favourites, settings and datasets are being written, several times over the
/// same state directory: every write the server acknowledged (2xx) is there after each restart,
/// and none is there twice.
final class KillTests: XCTestCase {
    /// Seconds from the writers' start to each `kill -9`.
    private static let killAfter: [Double] = [1.2, 0.6, 1.6]
    private static let countries = ["fr", "de", "it", "es", "jp", "br", "in"]
    private static let arguments = ["--write-rate", "100000", "--write-burst", "100000"]

    /// What the writers were told was done, across every run of the server.
    private actor Acknowledged {
        var favourites: [String: Set<String>] = [:]  // token → urls
        /// The last country acknowledged per token, and those asked since without an answer
        /// (perhaps committed just before a kill, the answer lost).
        var settings: [String: (acknowledged: String?, unanswered: Set<String>)] = [:]
        var datasets: [String: Set<String>] = [:]  // token → ids
        var count = 0
        var summary: String {
            "\(favourites.values.map(\.count).reduce(0, +)) favourites, \(datasets.values.map(\.count).reduce(0, +)) datasets, the rest settings"
        }

        func favourite(_ url: String, _ token: String) { favourites[token, default: []].insert(url); count += 1 }
        func asking(_ country: String, _ token: String) { settings[token, default: (nil, [])].unanswered.insert(country) }
        func setting(_ country: String, _ token: String) { settings[token] = (country, []); count += 1 }
        func dataset(_ id: String, _ token: String) { datasets[token, default: []].insert(id); count += 1 }
    }

    func testAcknowledgedWritesSurviveKillNine() async throws {
        let directory = ServerProcess.newStateDirectory()
        var server = try ServerProcess(stateDirectory: directory, arguments: Self.arguments)
        var tokens: [String] = []
        for _ in 0..<5 { tokens.append(try await server.newUser()) }
        let acknowledged = Acknowledged()
        for (round, delay) in Self.killAfter.enumerated() {
            let running = server
            let started = ContinuousClock.now
            await withTaskGroup(of: Void.self) { group in
                for (writer, token) in tokens.enumerated() {
                    group.addTask {
                        await Self.write(
                            writer: writer, round: round, token: token, to: running, until: started + .seconds(10),
                            acknowledged: acknowledged)
                    }
                }
                group.addTask {
                    try? await Task.sleep(until: started + .milliseconds(Int(delay * 1000)))
                    running.stop(signal: SIGKILL)
                }
            }
            XCTAssertEqual(running.process.terminationReason, .uncaughtSignal)
            server = try ServerProcess(stateDirectory: directory, arguments: Self.arguments)
            try await Self.check(server, acknowledged, after: "kill \(round + 1)")
        }
        let total = await acknowledged.count
        XCTAssertGreaterThan(total, 50, "too few writes were acknowledged for the kills to test anything")
        print("kill -9: \(Self.killAfter.count) kills, \(total) acknowledged writes (\(await acknowledged.summary)), none lost")
        server.stop()
    }

    /// Writes one kind of thing in a loop until a request fails (the server is gone).
    private static func write(
        writer: Int, round: Int, token: String, to server: ServerProcess,
        until deadline: ContinuousClock.Instant, acknowledged: Acknowledged
    ) async {
        var n = 0
        while ContinuousClock.now < deadline {
            n += 1
            do {
                switch writer % 3 {
                case 0:
                    let url = "https://kill.example.org/\(round)/\(writer)/\(n)"
                    let call = try await server.send("POST", "/v1/favourites", json: ["url": url, "title": "t \(n)"], token: token)
                    if call.status == 201 { await acknowledged.favourite(url, token) }
                case 1:
                    let country = countries[(round * 31 + n) % countries.count]
                    await acknowledged.asking(country, token)
                    let call = try await server.send("PUT", "/v1/settings", json: ["newsCountry": country], token: token)
                    if call.status == 200 { await acknowledged.setting(country, token) }
                default:
                    let rows = (0..<20).map { "\(Double(round) + Double($0) * 0.5),\(Double(n % 50) * 0.5)" }
                    let call = try await server.send(
                        "POST", "/v1/datasets", token: token,
                        body: Data(("lat,lon\n" + rows.joined(separator: "\n") + "\n").utf8), contentType: "text/csv")
                    if call.status == 201, let id = try? call.object()["id"] as? String { await acknowledged.dataset(id, token) }
                }
            } catch {
                return
            }
        }
    }

    private static func check(_ server: ServerProcess, _ acknowledged: Acknowledged, after moment: String) async throws {
        for (token, urls) in await acknowledged.favourites {
            var stored: [String] = []
            var next: String? = "/v1/favourites?limit=500"
            while let path = next {
                let page = try await server.get(path, token: token)
                XCTAssertEqual(page.status, 200, page.text)
                stored += try page.array().compactMap { $0["url"] as? String }
                next = page.header("Link").flatMap { $0.split(separator: ">").first.map { String($0.dropFirst()) } }
            }
            XCTAssertEqual(stored.count, Set(stored).count, "\(moment): a favourite is there twice")
            let lost = urls.subtracting(stored)
            XCTAssertTrue(lost.isEmpty, "\(moment): \(lost.count) acknowledged favourites lost, e.g. \(lost.first ?? "")")
        }
        for (token, expected) in await acknowledged.settings {
            let settings = try await server.get("/v1/settings", token: token).object()
            let country = settings["newsCountry"] as? String
            XCTAssertTrue(
                country == expected.acknowledged || country.map(expected.unanswered.contains) == true,
                "\(moment): settings say \(country ?? "nil"), the last acknowledged was \(expected.acknowledged ?? "nil")")
        }
        for (token, ids) in await acknowledged.datasets {
            let listed = try await server.get("/v1/datasets", token: token).array().compactMap { $0["id"] as? String }
            XCTAssertEqual(listed.count, Set(listed).count, "\(moment): a dataset is listed twice")
            let lost = ids.subtracting(listed)
            XCTAssertTrue(lost.isEmpty, "\(moment): \(lost.count) acknowledged datasets lost")
            if let id = ids.first {
                let clusters = try await server.get("/v1/clusters?dataset=\(id)&altitude=15000km")
                XCTAssertEqual(clusters.status, 200, "\(moment): \(clusters.text)")
            }
        }
    }
}

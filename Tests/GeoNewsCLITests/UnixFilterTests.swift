import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `geonews` as a stage of a shell pipeline: standard input with `-`, one exit status for a
/// missing data directory whatever the command, and a quiet end when the reader goes away.
final class UnixFilterTests: XCTestCase {
    func testClusterReadsItsPointsFromStandardInput() throws {
        let csv = "lat,lon,id\n48.85,2.35,paris\n48.86,2.36,louvre\n-33.87,151.21,sydney\n"
        let r = try CommandRunner.geonews(["cluster", "--input", "-", "--zoom", "3"], input: Data(csv.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        let features = try XCTUnwrap(CommandRunner.json(r.stdout)["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(properties.count, 2, "Paris and the Louvre cluster at zoom 3; Sydney stands alone")
        XCTAssertEqual(Set(properties.first { $0["cluster"] as? Bool == true }?["members"] as? [String] ?? []), ["paris", "louvre"])
        XCTAssertTrue(properties.contains { $0["id"] as? String == "sydney" })

        let geojson =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[2.35,48.85]}}]}"#
        let fromJSON = try CommandRunner.geonews(["cluster", "--input", "-", "--zoom", "3"], input: Data(geojson.utf8))
        XCTAssertEqual(fromJSON.status, 0, fromJSON.stderr)
        XCTAssertTrue(fromJSON.stdout.contains(#""id":"x""#), fromJSON.stdout)

        let bad = try CommandRunner.geonews(["cluster", "--input", "-", "--zoom", "3"], input: Data("lat,lon\n91,0\n".utf8))
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("91"), bad.stderr)
    }

    /// Every command that reads Data/ exits 65 with one line naming where it looked, whether
    /// the directory comes from GEONEWS_DATA or from --data.
    func testAMissingDataDirectoryExits65FromEveryCommand() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-no-data-\(UUID().uuidString)").path
        let fixes = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-fixes-\(UUID().uuidString).csv")
        try Data("lat,lon\n1,1\n".utf8).write(to: fixes)
        defer { try? FileManager.default.removeItem(at: fixes) }
        let commands: [[String]] = [
            ["--lat", "1", "--lon", "1", "--no-headlines"],
            ["locate", "--lat", "1", "--lon", "1", "--no-headlines"],
            ["countries"],
            ["resolve", fixes.path],
            ["cluster", "--zoom", "1"],
        ]
        for command in commands {
            let byVariable = try CommandRunner.geonews(command, environment: ["GEONEWS_DATA": missing])
            let byOption = try CommandRunner.geonews(command + ["--data", missing])
            for (how, r) in [("GEONEWS_DATA", byVariable), ("--data", byOption)] {
                let shown = "geonews \(command.joined(separator: " ")) with \(how)"
                XCTAssertEqual(r.status, 65, "\(shown): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(missing), "\(shown) names the directory: \(r.stderr)")
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(shown): \(r.stderr)")
                XCTAssertEqual(r.stdout, "", shown)
            }
        }
    }

    /// `geonews resolve big.csv | head -1`: the reader takes one line and leaves; geonews ends
    /// at once by SIGPIPE, as `cat` or `grep` would, and prints nothing about it.
    func testAClosedPipeEndsResolveQuietly() throws {
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-big-\(UUID().uuidString).csv")
        var csv = "lat,lon\n"
        for i in 0..<200_000 { csv += "\(Double(i % 180) - 89.5),\(Double(i % 360) - 179.5)\n" }
        try Data(csv.utf8).write(to: big)
        defer { try? FileManager.default.removeItem(at: big) }

        // The parent ignores SIGPIPE, as a JVM or a Python script may: geonews still ends quietly.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let process = try CommandRunner.prepared(["resolve", "--no-progress", big.path])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var first: [UInt8] = []
        var byte: UInt8 = 0
        while read(out.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { first.append(byte) }
        XCTAssertTrue(String(decoding: first, as: UTF8.self).hasPrefix("lat,lon,country_iso2"), String(decoding: first, as: UTF8.self))
        try out.fileHandleForReading.close()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = (process.terminationReason, process.terminationStatus)
        XCTAssertTrue(status == (.uncaughtSignal, SIGPIPE) || status == (.exit, 0), "ended with \(status)")
        XCTAssertEqual(String(decoding: errors, as: UTF8.self), "", "no message about the closed pipe")
    }
}

import Foundation
import XCTest

final class BatchResolveTests: XCTestCase {
    /// 3,000 fixes across Europe with a bad row every 97th: text, out of range, empty.
    static func fixes() -> [(lat: String, lon: String)] {
        (0..<3000).map { i in
            switch i % 97 {
            case 13: return ("abc", "2.35")
            case 41: return ("91.5", "2.35")
            case 70: return ("", "")
            default: return (String(format: "%.5f", 36 + Double(i % 211) * 0.1), String(format: "%.5f", -9 + Double(i % 307) * 0.1))
            }
        }
    }

    static let csv =
        "lat,lon,name\n" + fixes().enumerated().map { "\($0.element.lat),\($0.element.lon),p\($0.offset)" }.joined(separator: "\n") + "\n"
    static let ndjson =
        fixes().enumerated().map { i, f in
            let lat = f.lat.isEmpty ? "null" : Double(f.lat) == nil ? "\"" + f.lat + "\"" : f.lat
            let lon = f.lon.isEmpty ? "null" : f.lon
            return "{\"lat\":" + lat + ",\"lon\":" + lon + ",\"n\":\(i)}"
        }.joined(separator: "\n") + "\n"
    static let geojson =
        #"{"type":"FeatureCollection","features":["#
        + fixes().enumerated().map { i, f in
            let lat = Double(f.lat).map { "\($0)" } ?? "\"\(f.lat)\""
            let lon = Double(f.lon).map { "\($0)" } ?? "\"\(f.lon)\""
            return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"n":\#(i)}}"#
        }.joined(separator: ",\n") + "]}\n"

    /// What `geonews resolve --format FORMAT` prints for `text`.
    func cli(_ text: String, format: String, extra: [String] = []) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString).\(format)")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try ServerProcess.runCLI(["resolve", "--format", format, "--no-progress"] + extra + [file.path])
    }

    /// `borderDistance=true` is the CLI's `--border-distance`: the same extra column, the
    /// same bytes, in every output format; a value that is not a boolean is a 400 naming it.
    func testBorderDistanceAddsTheCLIsColumn() async throws {
        let server = try ServerProcess()
        for (text, type, format) in [(Self.csv, "text/csv", "csv"), (Self.ndjson, "application/x-ndjson", "ndjson")] {
            let call = try await server.send("POST", "/v1/resolve?borderDistance=true", body: Data(text.utf8), contentType: type)
            XCTAssertEqual(call.status, 200, call.text)
            XCTAssertEqual(call.text, try cli(text, format: format, extra: ["--border-distance"]), format)
            XCTAssertNotEqual(call.text, try cli(text, format: format), "the column is only there when asked for")
        }
        let csv = try await server.send("POST", "/v1/resolve?borderDistance=true", body: Data(Self.csv.utf8), contentType: "text/csv")
        let header = try XCTUnwrap(csv.text.split(separator: "\n").first).split(separator: ",")
        XCTAssertEqual(header.firstIndex(of: "border_distance_km"), header.firstIndex(of: "time_zone").map { $0 + 1 }, "\(header)")
        // Rows on land carry a measured distance, not an empty field.
        let column = try XCTUnwrap(header.firstIndex(of: "border_distance_km"))
        let measured = csv.text.split(separator: "\n").dropFirst().compactMap { row -> Double? in
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            return fields.count > column ? Double(fields[column]) : nil
        }
        XCTAssertFalse(measured.isEmpty, csv.text)
        XCTAssertTrue(measured.allSatisfy { $0 >= 0 }, "\(measured)")
        let plain = try await server.send("POST", "/v1/resolve?borderDistance=false", body: Data(Self.csv.utf8), contentType: "text/csv")
        XCTAssertFalse(plain.text.prefix(200).contains("border_distance_km"))
        try assertProblem(
            try await server.send("POST", "/v1/resolve?borderDistance=maybe", body: Data(Self.csv.utf8), contentType: "text/csv"),
            400, mentions: ["borderDistance", "maybe"])
    }

    /// `place=true` is the CLI's `--place`: the same three columns, the same bytes, in CSV (the
    /// path by index), NDJSON and GeoJSON; a value that is not a boolean is a 400 naming it.
    func testPlaceAddsTheCLIsColumns() async throws {
        let server = try ServerProcess()
        for (text, type, format) in [
            (Self.csv, "text/csv", "csv"), (Self.ndjson, "application/x-ndjson", "ndjson"),
            (Self.geojson, "application/geo+json", "geojson"),
        ] {
            let call = try await server.send("POST", "/v1/resolve?place=true", body: Data(text.utf8), contentType: type)
            XCTAssertEqual(call.status, 200, call.text)
            XCTAssertEqual(call.text, try cli(text, format: format, extra: ["--place"]), format)
            XCTAssertTrue(call.text.contains("place_geonameid"), format)
        }
        try assertProblem(
            try await server.send("POST", "/v1/resolve?place=perhaps", body: Data(Self.csv.utf8), contentType: "text/csv"),
            400, mentions: ["place", "perhaps"])
    }

    /// `region=true` is the CLI's `--region`: the same three columns, the same bytes, in every
    /// format; a value that is not a boolean is a 400 naming it.
    func testRegionAddsTheCLIsColumns() async throws {
        let server = try ServerProcess()
        for (text, type, format) in [
            (Self.csv, "text/csv", "csv"), (Self.ndjson, "application/x-ndjson", "ndjson"),
            (Self.geojson, "application/geo+json", "geojson"),
        ] {
            let call = try await server.send("POST", "/v1/resolve?region=true&place=true", body: Data(text.utf8), contentType: type)
            XCTAssertEqual(call.status, 200, call.text)
            XCTAssertEqual(call.text, try cli(text, format: format, extra: ["--region", "--place"]), format)
            XCTAssertTrue(call.text.contains("region_geonames"), format)
        }
        try assertProblem(
            try await server.send("POST", "/v1/resolve?region=2", body: Data(Self.csv.utf8), contentType: "text/csv"),
            400, mentions: ["region", "2"])
    }

    func testEachFormatStreamsBackTheCLIsRowsByteForByte() async throws {
        let server = try ServerProcess()
        for (text, type, format) in [
            (Self.csv, "text/csv", "csv"), (Self.ndjson, "application/x-ndjson", "ndjson"),
            (Self.geojson, "application/geo+json", "geojson"),
        ] {
            let call = try await server.send("POST", "/v1/resolve", body: Data(text.utf8), contentType: type)
            XCTAssertEqual(call.status, 200, call.text)
            XCTAssertTrue(call.header("Content-Type")?.hasPrefix(type) ?? false, "\(call.header("Content-Type") ?? "")")
            let expected = try cli(text, format: format)
            XCTAssertEqual(call.text, expected, format)
            // Rows in = rows out, the bad ones as error rows.
            let rows: Int
            switch format {
            case "csv": rows = call.text.split(separator: "\n").count - 1
            case "ndjson": rows = call.text.split(separator: "\n").count
            default: rows = (try call.object()["features"] as? [Any])?.count ?? 0
            }
            XCTAssertEqual(rows, 3000, format)
            if format == "ndjson" {
                let errors = try call.text.split(separator: "\n").filter { line in
                    let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    return (row["error"] as? String).map { !$0.isEmpty } ?? false
                }
                XCTAssertEqual(errors.count, 93)  // i % 97 in {13, 41, 70} for i < 3000
            }
        }
    }

    func testQueryOptionsMatchTheCLIsFlags() async throws {
        let server = try ServerProcess()
        let headerless = Self.fixes().prefix(500).map { "\($0.lon);x,\($0.lat)" }.joined(separator: "\n") + "\n"
        let call = try await server.send(
            "POST", "/v1/resolve?noHeader=true&latCol=2&lonCol=1&outputFormat=ndjson",
            body: Data(headerless.utf8), contentType: "text/csv; charset=utf-8")
        XCTAssertEqual(call.status, 200, call.text)
        XCTAssertEqual(call.header("Content-Type"), "application/x-ndjson")
        XCTAssertEqual(
            call.text,
            try cli(headerless, format: "csv", extra: ["--no-header", "--lat-col", "2", "--lon-col", "1", "--output-format", "ndjson"]))
        XCTAssertEqual(call.text.split(separator: "\n").count, 500)
    }

    func testTheWebMapsAcceptHeaderChoosesNDJSON() async throws {
        let server = try ServerProcess()
        let url = URL(string: "/v1/resolve", relativeTo: server.baseURL)!
        let call = try await HTTPCall.send(
            "POST", url, body: Data("lat,lon\n48.85,2.35\n".utf8), contentType: "text/csv",
            headers: ["Accept": "application/x-ndjson"])
        XCTAssertEqual(call.status, 200, call.text)
        let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: call.body) as? [String: Any])
        XCTAssertEqual(row["country_iso2"] as? String, "FR")
    }

    func testRefusalsAreProblems() async throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "10000"])
        try assertProblem(
            try await server.send("POST", "/v1/resolve", body: Data(Self.csv.utf8), contentType: "text/csv"),
            413, mentions: ["10000", "--max-body-bytes"])
        try assertProblem(
            try await server.send("POST", "/v1/resolve", body: Data("<gpx/>".utf8), contentType: "application/gpx+xml"),
            415, mentions: ["application/gpx+xml", "text/csv"])
        try assertProblem(
            try await server.send("POST", "/v1/resolve", body: Data("a,b\n1,2\n".utf8), contentType: "text/csv"),
            400, mentions: ["latCol"])
        try assertProblem(
            try await server.send("POST", "/v1/resolve?outputFormat=gpx", body: Data("lat,lon\n1,2\n".utf8), contentType: "text/csv"),
            400, mentions: ["outputFormat", "gpx"])
    }

    func testABodyWithoutALengthIsHeldToTheLimitAsItStreams() throws {
        let server = try ServerProcess(arguments: ["--max-body-bytes", "10000"])
        let connection = try LoopbackConnection(port: server.port)
        var request =
            "POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        for piece in stride(from: 0, to: 30_000, by: 3_000) {
            let part = String(Self.csv.utf8.dropFirst(piece).prefix(3_000))!
            request += String(part.utf8.count, radix: 16) + "\r\n" + part + "\r\n"
        }
        request += "0\r\n\r\n"
        try connection.send(Data(request.utf8))
        let answer = connection.receiveAll()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 413"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("application/problem+json"), String(answer.prefix(400)))
        XCTAssertTrue(answer.contains("10000 bytes (--max-body-bytes)"), String(answer.prefix(600)))
    }

    func testSummaryTrueAnswersTheCLIsSummaryJSON() async throws {
        let server = try ServerProcess()
        let call = try await server.send("POST", "/v1/resolve?summary=true", body: Data(Self.csv.utf8), contentType: "text/csv")
        XCTAssertEqual(call.status, 200, call.text)
        let summary = try call.object()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try cli(Self.csv, format: "csv", extra: ["--summary-json", file.path])
        let printed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        XCTAssertEqual(summary["records_read"] as? Int, 3000)
        XCTAssertEqual(summary["records_in_error"] as? Int, 93)
        for key in ["records_read", "records_resolved", "records_in_error", "at_sea"] {
            XCTAssertEqual(summary[key] as? Int, printed[key] as? Int, key)
        }
        XCTAssertEqual(summary["countries"] as? [String: Int], printed["countries"] as? [String: Int])
        XCTAssertEqual((summary["traces"] as? [Any])?.count, (printed["traces"] as? [Any])?.count)
        try assertProblem(
            try await server.send("POST", "/v1/resolve?summary=maybe", body: Data("lat,lon\n1,2\n".utf8), contentType: "text/csv"),
            400, mentions: ["summary", "maybe"])
    }
}

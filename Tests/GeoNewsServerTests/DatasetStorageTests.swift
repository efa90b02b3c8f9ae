import Foundation
import GeoNewsDatasets
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `--max-dataset-bytes` holds when uploads arrive together: each reserves its room before its
/// body is read, and a refused, failed or abandoned upload gives its room back.
final class DatasetStorageTests: XCTestCase {
    /// Bytes of the files in the server's datasets folder, and their names.
    func storedFiles(_ server: ServerProcess) throws -> (bytes: Int, names: [String]) {
        let folder = server.stateDirectory.appendingPathComponent("datasets")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let bytes = try names.reduce(0) {
            $0 + (try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($1).path)[.size] as? Int ?? 0)
        }
        return (bytes, names)
    }

    func upload(_ server: ServerProcess, token: String, body: Data = Data(DatasetTests.csv.utf8)) async throws -> HTTPCall {
        try await server.send("POST", "/v1/datasets", token: token, body: body, contentType: "text/csv")
    }

    /// The bytes one upload of ``DatasetTests/csv`` takes stored: its points file and archive.
    func bytesOfOneUpload() async throws -> Int {
        let server = try ServerProcess()
        defer { server.stop() }
        let created = try await upload(server, token: try await server.newUser())
        XCTAssertEqual(created.status, 201, created.text)
        return try storedFiles(server).bytes
    }

    func testUploadsArrivingTogetherNeverPassTheLimitAndRefusedOnesGiveTheirRoomBack() async throws {
        let each = try await bytesOfOneUpload()
        let csvBytes = DatasetTests.csv.utf8.count
        XCTAssertGreaterThan(each, 2 * csvBytes, "the archive is larger than the points")
        // Room for four uploads and half of a fifth.
        let limit = 4 * each + each / 2
        let server = try ServerProcess(arguments: ["--max-dataset-bytes", "\(limit)", "--write-burst", "200"])
        let token = try await server.newUser()

        // Twelve connections at once (a session's default is six per host).
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 12
        let session = URLSession(configuration: configuration)
        var request = URLRequest(url: URL(string: "/v1/datasets", relativeTo: server.baseURL)!)
        request.httpMethod = "POST"
        request.httpBody = Data(DatasetTests.csv.utf8)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("text/csv", forHTTPHeaderField: "Content-Type")
        let answers = try await withThrowingTaskGroup(of: HTTPCall.self) { group in
            for _ in 0..<12 {
                group.addTask { [request] in
                    let (data, response) = try await session.data(for: request)
                    let http = try XCTUnwrap(response as? HTTPURLResponse)
                    let headers = Dictionary(uniqueKeysWithValues: http.allHeaderFields.map { ("\($0.key)", "\($0.value)") })
                    return HTTPCall(status: http.statusCode, headers: headers, body: data)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let created = answers.filter { $0.status == 201 }
        let refused = answers.filter { $0.status == 413 }
        XCTAssertEqual(created.count + refused.count, 12, answers.map(\.text).joined(separator: "\n"))
        XCTAssertTrue((1...4).contains(created.count), "\(created.count) uploads admitted under room for 4")
        print("12 uploads at once under room for 4: \(created.count) admitted, \(refused.count) refused")
        for answer in refused { try assertProblem(answer, 413, mentions: ["--max-dataset-bytes", "\(limit)"]) }
        var stored = try storedFiles(server)
        XCTAssertLessThanOrEqual(stored.bytes, limit)
        XCTAssertEqual(stored.bytes, created.count * each, stored.names.joined(separator: " "))
        XCTAssertEqual(stored.names.count, 2 * created.count, "a points file and an archive each, nothing partial")

        // What the refused uploads held is free again: uploads one at a time fill the room to
        // exactly four, and the fifth is refused.
        for _ in min(created.count, 4)..<4 {
            let later = try await upload(server, token: token)
            XCTAssertEqual(later.status, 201, later.text)
        }
        try assertProblem(try await upload(server, token: token), 413, mentions: ["--max-dataset-bytes"])
        stored = try storedFiles(server)
        XCTAssertEqual(stored.bytes, 4 * each)

        // A deleted dataset's room comes back; an upload that fails (no usable points) and one
        // whose client goes away halfway through its body give theirs back.
        let list = try await server.get("/v1/datasets", token: token)
        let ids = try list.array().compactMap { $0["id"] as? String }.filter { $0 != "markers" }
        XCTAssertEqual(ids.count, 4)
        let deleted = try await server.send("DELETE", "/v1/datasets/\(ids[0])", token: token)
        XCTAssertEqual(deleted.status, 204)
        let unusable = try await upload(server, token: token, body: Data("lat,lon\nnorth,east\n".utf8))
        XCTAssertEqual(unusable.status, 400, unusable.text)

        // A body declared as long as all the room left: its room is reserved while it arrives.
        let free = limit - 3 * each
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(
            "POST /v1/datasets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: text/csv\r\nContent-Length: \(free)\r\n\r\n")
        try connection.send(Data(DatasetTests.csv.utf8).prefix(csvBytes / 2))
        // Its points file appears once its room is reserved.
        var waits = 0
        while try storedFiles(server).names.count < 7, waits < 100 {
            try await Task.sleep(for: .milliseconds(100))
            waits += 1
        }
        XCTAssertEqual(try storedFiles(server).names.count, 7)
        try assertProblem(try await upload(server, token: token), 413, mentions: ["uploads under way hold \(free) more"])
        connection.abort(reset: true)

        // The server notices the reset when it next reads: give it a few seconds.
        var last: HTTPCall?
        for _ in 0..<50 {
            last = try await upload(server, token: token)
            if last?.status == 201 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        XCTAssertEqual(last?.status, 201, last?.text ?? "")
        stored = try storedFiles(server)
        XCTAssertEqual(stored.bytes, 4 * each, stored.names.joined(separator: " "))
    }
}

import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange with the server under test, through URLSession.
struct HTTPCall {
    let status: Int
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
    func object() throws -> [String: Any] { try XCTUnwrap(try json() as? [String: Any], text) }
    func array() throws -> [[String: Any]] { try XCTUnwrap(try json() as? [[String: Any]], text) }

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    static func send(
        _ method: String, _ url: URL, token: String? = nil, body: Data? = nil,
        contentType: String? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPCall {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let (data, response) = try await session.data(for: request)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (k, v) in http.allHeaderFields { fields["\(k)"] = "\(v)" }
        return HTTPCall(status: http.statusCode, headers: fields, body: data)
    }
}

extension ServerProcess {
    func get(_ path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> HTTPCall {
        try await HTTPCall.send("GET", URL(string: path, relativeTo: baseURL)!, token: token, headers: headers)
    }

    func send(
        _ method: String, _ path: String, json: Any? = nil, token: String? = nil,
        body: Data? = nil, contentType: String? = nil
    ) async throws -> HTTPCall {
        let data = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? body
        return try await HTTPCall.send(
            method, URL(string: path, relativeTo: baseURL)!, token: token, body: data,
            contentType: contentType ?? (json == nil ? nil : "application/json"))
    }

    /// A new user's bearer token.
    func newUser() async throws -> String {
        let created = try await send("POST", "/v1/users")
        XCTAssertEqual(created.status, 201, created.text)
        return try XCTUnwrap(try created.object()["token"] as? String)
    }
}

/// Checks that `call` is an RFC 9457 problem with `status` whose detail mentions each of `mentions`.
func assertProblem(_ call: HTTPCall, _ status: Int, mentions: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(call.status, status, call.text, file: file, line: line)
    XCTAssertEqual(call.header("Content-Type"), "application/problem+json", file: file, line: line)
    let problem = try call.object()
    XCTAssertEqual(problem["status"] as? Int, status, file: file, line: line)
    XCTAssertNotNil(problem["title"] as? String, file: file, line: line)
    XCTAssertNotNil(problem["type"] as? String, file: file, line: line)
    let detail = try XCTUnwrap(problem["detail"] as? String, file: file, line: line)
    for word in mentions {
        XCTAssertTrue(detail.contains(word), "'\(detail)' does not mention '\(word)'", file: file, line: line)
    }
}

import Foundation
import GeoNewsLoopback

extension ScriptedResponse {
    static func fixture(_ name: String, status: Int = 200, contentType: String, headers: [(String, String)] = []) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", contentType)] + headers, body: Fixture.data(name))
    }

    static func json(_ name: String, status: Int = 200, headers: [(String, String)] = []) -> ScriptedResponse {
        fixture(name, status: status, contentType: "application/json; charset=utf-8", headers: headers)
    }

    static func rss(_ name: String) -> ScriptedResponse {
        fixture(name, contentType: "application/rss+xml; charset=utf-8")
    }
}

/// Reads the committed test fixtures.
enum Fixture {
    static func url(_ name: String) -> URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    static func data(_ name: String) -> Data {
        guard let data = try? Data(contentsOf: url(name)) else { preconditionFailure("missing fixture \(name)") }
        return data
    }
}

import Foundation
import GeoNewsVersion
import Hummingbird

/// `GET /openapi.yaml`: the hand-written OpenAPI 3.1 description of every route.
struct OpenAPIRoutes {
    /// The document, read once at start from the module's resources.
    let document: Data

    init() throws {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw ServerStartError.data("openapi.yaml is missing from the server's resources")
        }
        document = try Self.stamped(Data(contentsOf: url))
    }

    /// The document with `info.version` set to the release's version: the file carries a
    /// placeholder, so that the version is written in one place only.
    static func stamped(_ document: Data) throws -> Data {
        let placeholder = Data(#"version: "0.0.0-unreleased""#.utf8)
        guard let range = document.range(of: placeholder) else {
            throw ServerStartError.data("openapi.yaml has no info.version placeholder")
        }
        var stamped = document
        stamped.replaceSubrange(range, with: Data(#"version: "\#(GeoNewsRelease.version)""#.utf8))
        return stamped
    }

    func add(to routes: inout RouteBuilder) {
        routes.get("/openapi.yaml") { [document] _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(data: document)))
        }
    }
}

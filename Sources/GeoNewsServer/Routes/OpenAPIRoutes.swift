import Foundation
import Hummingbird

/// `GET /openapi.yaml`: the hand-written OpenAPI 3.1 description of every route.
struct OpenAPIRoutes {
    /// The document, read once at start from the module's resources.
    let document: Data

    init() throws {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw ServerStartError.data("openapi.yaml is missing from the server's resources")
        }
        document = try Data(contentsOf: url)
    }

    func add(to routes: inout RouteBuilder) {
        routes.get("/openapi.yaml") { [document] _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml", .cacheControl: "public, max-age=3600"],
                     body: .init(byteBuffer: ByteBuffer(data: document)))
        }
    }
}

import Foundation
import Hummingbird

/// `POST /v1/users`: creates a user and answers its bearer token, the only time it is shown.
/// `DELETE /v1/users/me`: deletes the user of the bearer token with everything it owns
/// (favourites, settings, datasets), which also revokes the token.
struct UserRoutes {
    let state: ServerState

    private struct Created: Encodable {
        let id: Int64
        let token: String
        /// When the token stops working, ISO 8601 UTC.
        let expiresAt: String
    }

    func add(to routes: inout RouteBuilder) {
        routes.post("/v1/users") { _, _ in
            let token = BearerToken.generate()
            let id = try await state.store.createUser(tokenHash: token.hash, tokenPrefix: token.prefix)
            let expiry = Date().addingTimeInterval(Double(state.configuration.tokenLifetimeSeconds))
            return try JSONResponse.encode(
                Created(id: id, token: token.text, expiresAt: expiry.formatted(.iso8601)),
                status: .created, headers: [.cacheControl: "no-store"])
        }
        routes.delete("/v1/users/me") { request, _ in
            let user = try await state.authenticatedUser(request)
            for record in try await state.store.deleteUser(user) {
                state.datasets.discard(record)
            }
            return Response(status: .noContent)
        }
    }
}

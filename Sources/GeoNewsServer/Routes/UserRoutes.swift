import Hummingbird

/// `POST /v1/users`: creates a user and answers its bearer token, the only time it is shown.
struct UserRoutes {
    let state: ServerState

    private struct Created: Encodable {
        let id: Int64
        let token: String
    }

    func add(to routes: inout RouteBuilder) {
        routes.post("/v1/users") { _, _ in
            let token = BearerToken.generate()
            let id = try await state.store.createUser(tokenHash: token.hash)
            return try JSONResponse.encode(Created(id: id, token: token.text), status: .created,
                                           headers: [.cacheControl: "no-store"])
        }
    }
}

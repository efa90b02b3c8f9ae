import Hummingbird

extension ServerState {
    /// The id of the user whose token is in the request's `Authorization: Bearer …` header.
    ///
    /// Throws a 401 problem when the header is absent, malformed or names no user. The token
    /// is never echoed in the problem or a log line.
    func authenticatedUser(_ request: Request) async throws -> Int64 {
        let challenge: HTTPFields = [.wwwAuthenticate: #"Bearer realm="geonews""#]
        guard let header = request.headers[.authorization] else {
            throw Problem(.unauthorized, detail: "the Authorization header is missing; send 'Authorization: Bearer <token>' with the token POST /v1/users returned",
                          headers: challenge)
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw Problem(.unauthorized, detail: "the Authorization header is not of the form 'Bearer <token>'", headers: challenge)
        }
        let token = BearerToken(text: parts[1].trimmingCharacters(in: .whitespaces))
        guard let user = try await store.user(tokenHash: token.hash) else {
            throw Problem(.unauthorized, detail: "the bearer token is not valid; create a user with POST /v1/users", headers: challenge)
        }
        return user
    }
}

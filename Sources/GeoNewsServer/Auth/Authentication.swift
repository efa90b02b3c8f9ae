import Foundation
import Hummingbird

extension ServerState {
    /// The id of the user whose token is in the request's `Authorization: Bearer …` header.
    ///
    /// Throws a 401 problem when the header is absent or malformed, or the token names no user,
    /// was revoked, or is older than `--token-lifetime`. The token is never echoed in the
    /// problem or a log line.
    func authenticatedUser(_ request: Request) async throws -> Int64 {
        let challenge: HTTPFields = [.wwwAuthenticate: #"Bearer realm="geonews""#]
        guard let header = request.headers[.authorization] else {
            throw Problem(
                .unauthorized,
                detail: "the Authorization header is missing; send 'Authorization: Bearer <token>' with the token POST /v1/users returned",
                headers: challenge)
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw Problem(.unauthorized, detail: "the Authorization header is not of the form 'Bearer <token>'", headers: challenge)
        }
        let token = BearerToken(text: parts[1].trimmingCharacters(in: .whitespaces))
        let invalid: HTTPFields = [.wwwAuthenticate: #"Bearer realm="geonews", error="invalid_token""#]
        guard let holder = try await store.tokenHolder(tokenHash: token.hash) else {
            throw Problem(.unauthorized, detail: "the bearer token is not valid; create a user with POST /v1/users", headers: invalid)
        }
        guard holder.revokedAt == nil else {
            throw Problem(.unauthorized, detail: "the bearer token was revoked; create a user with POST /v1/users", headers: invalid)
        }
        let age = Date().timeIntervalSince(holder.issuedAt)
        guard age <= Double(configuration.tokenLifetimeSeconds) else {
            throw Problem(
                .unauthorized,
                detail:
                    "the bearer token expired (tokens last \(configuration.tokenLifetimeSeconds) seconds); create a user with POST /v1/users",
                headers: invalid)
        }
        return holder.user
    }
}

import Foundation

/// What the store knows of the user a token names.
public struct TokenHolder: Sendable, Equatable {
    /// The user's id.
    public var user: Int64
    /// When the token was issued (the user created); its age decides whether it expired.
    public var issuedAt: Date
    /// When an operator revoked the token, or `nil`.
    public var revokedAt: Date?
}

/// How an operator names the token to revoke.
public enum TokenSelector: Sendable {
    /// The user's id, as `POST /v1/users` answered it.
    case user(Int64)
    /// The token's stored prefix (`gn_` and 8 hex digits).
    case prefix(String)
    /// The SHA-256 of a whole token.
    case hash(Data)
}

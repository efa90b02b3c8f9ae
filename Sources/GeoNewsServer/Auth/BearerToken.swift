import Crypto
import Foundation

/// A user's API token: 32 random bytes, written as `gn_` and 64 hexadecimal digits.
///
/// The token is shown once, in the answer that creates the user; the store keeps only its
/// SHA-256 and its first 11 characters (``prefix``), so a copy of the database does not let
/// anyone act as a user, while an operator can still name a token to revoke.
struct BearerToken: Sendable {
    let text: String

    /// Characters of the token kept in clear: `gn_` and 8 of its 64 hex digits (32 of its
    /// 256 bits), enough to tell tokens apart, far too few to guess the rest.
    static let prefixLength = 11

    /// A fresh token from the system's cryptographic generator (`getrandom`).
    static func generate() -> BearerToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return BearerToken(text: "gn_" + bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// The SHA-256 digest the store keys the user by.
    var hash: Data { Data(SHA256.hash(data: Data(text.utf8))) }

    /// The token's first characters, stored in clear.
    var prefix: String { String(text.prefix(Self.prefixLength)) }

    /// Whether `text` has the form of a whole token.
    static func isWhole(_ text: String) -> Bool {
        text.utf8.count == 67 && text.hasPrefix("gn_") && text.utf8.dropFirst(3).allSatisfy(Self.isHexDigit)
    }

    /// Whether `text` has the form of a stored prefix.
    static func isPrefix(_ text: String) -> Bool {
        text.utf8.count == prefixLength && text.hasPrefix("gn_") && text.utf8.dropFirst(3).allSatisfy(Self.isHexDigit)
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
    }
}

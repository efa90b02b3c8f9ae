import Crypto
import Foundation

/// A user's API token: 32 random bytes, written as `gn_` and 64 hexadecimal digits.
///
/// The token is shown once, in the answer that creates the user; the store keeps only its
/// SHA-256, so a copy of the database does not let anyone act as a user.
struct BearerToken: Sendable {
    let text: String

    /// A fresh token from the system's cryptographic generator (`getrandom`).
    static func generate() -> BearerToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return BearerToken(text: "gn_" + bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// The SHA-256 digest the store keys the user by.
    var hash: Data { Data(SHA256.hash(data: Data(text.utf8))) }
}

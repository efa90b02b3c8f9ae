import Foundation
import GeoNewsStore

/// Revokes tokens in a state directory, for the operator's `geonews-serve tokens revoke`.
public enum TokenRevocation {
    /// Revokes the token that `selector` names: a user id, a whole token, or a token's stored
    /// prefix (`gn_` and 8 hex digits). Answers the ids of the users revoked.
    ///
    /// - Throws: ``TokenRevocationError``; never with the token's text in the message.
    public static func revoke(_ selector: String, stateDirectory: URL) throws(TokenRevocationError) -> [Int64] {
        let chosen: TokenSelector
        if !selector.isEmpty, selector.utf8.count <= 19, selector.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard let id = Int64(selector), id >= 1 else { throw .badSelector }
            chosen = .user(id)
        } else if BearerToken.isWhole(selector) {
            chosen = .hash(BearerToken(text: selector).hash)
        } else if BearerToken.isPrefix(selector) {
            chosen = .prefix(selector)
        } else {
            throw .badSelector
        }
        guard FileManager.default.fileExists(atPath: stateDirectory.appendingPathComponent(Store.fileName).path) else {
            throw .noDatabase(stateDirectory.path)
        }
        let revoked: [Int64]
        do {
            revoked = try Store(directory: stateDirectory).revokeTokens(chosen)
        } catch {
            if case .ambiguous(let reason) = error { throw .ambiguous(reason) }
            throw .store(error.description)
        }
        guard !revoked.isEmpty else { throw .noSuchToken }
        return revoked
    }
}

/// Why a token could not be revoked.
public enum TokenRevocationError: Error, CustomStringConvertible {
    case badSelector
    case ambiguous(String)
    case noDatabase(String)
    case noSuchToken
    case store(String)

    public var description: String {
        switch self {
        case .badSelector:
            return "expected a user id, a whole token (gn_ and 64 hex digits) or its first 11 characters (gn_ and 8 hex digits)"
        case .ambiguous(let reason): return reason
        case .noDatabase(let path): return "there is no state database in \(path); pass the server's --state-dir"
        case .noSuchToken: return "no user with a token that is not yet revoked matches"
        case .store(let reason): return reason
        }
    }
}

import Foundation
import GeoNewsStore
import Logging

/// Revokes tokens in a state directory, for the operator's `geonews-serve tokens revoke`.
public enum TokenRevocation {
    /// Revokes the token that `selector` names: a user id, a whole token, or a token's stored
    /// prefix (`gn_` and 8 hex digits). Answers the ids of the users revoked.
    ///
    /// - Throws: ``TokenRevocationError``; never with the token's text in the message.
    public static func revoke(_ selector: String, stateDirectory: URL) throws(TokenRevocationError) -> [Int64] {
        let chosen = try parse(selector)
        guard FileManager.default.fileExists(atPath: stateDirectory.appendingPathComponent(SQLiteStore.fileName).path) else {
            throw .noDatabase(stateDirectory.path)
        }
        let revoked: [Int64]
        do {
            revoked = try SQLiteStore(directory: stateDirectory).revokeTokens(chosen)
        } catch {
            if case .ambiguous(let reason) = error { throw .ambiguous(reason) }
            throw .store(error.description)
        }
        guard !revoked.isEmpty else { throw .noSuchToken }
        return revoked
    }

    /// As ``revoke(_:stateDirectory:)``, in the PostgreSQL database the instances share.
    public static func revoke(_ selector: String, postgres: PostgresLocation, logger: Logger) async throws(TokenRevocationError) -> [Int64]
    {
        let chosen = try parse(selector)
        let revoked: [Int64]
        do throws(StoreError) {
            let store = try await PostgresStore.open(postgres, logger: logger)
            do throws(StoreError) {
                revoked = try await store.revokeTokens(chosen)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        } catch {
            if case .ambiguous(let reason) = error { throw .ambiguous(reason) }
            throw .store(error.description)
        }
        guard !revoked.isEmpty else { throw .noSuchToken }
        return revoked
    }

    private static func parse(_ selector: String) throws(TokenRevocationError) -> TokenSelector {
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
        return chosen
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

import Foundation

/// Everything `geonews serve` persists: users and their token hashes, favourites, settings and
/// the uploaded datasets. ``SQLiteStore`` keeps it in one file on one machine;
/// ``PostgresStore`` keeps it in PostgreSQL, where several server instances share it.
///
/// Every write is one transaction, committed before the method returns: a write the server
/// acknowledged survives a crash of the process. A store that cannot be reached throws
/// ``StoreError/unavailable(_:)``, which the server answers with 503.
public protocol ServerStore: Sendable {
    /// Adds a user identified by the SHA-256 hash of their token (32 bytes) and returns its id.
    /// `tokenPrefix` is the token's first characters, not enough to act as the user, kept so
    /// that an operator can name the token.
    func createUser(tokenHash: Data, tokenPrefix: String) async throws(StoreError) -> Int64

    /// The user whose token hashes to `tokenHash`, or `nil` for no such user.
    func tokenHolder(tokenHash: Data) async throws(StoreError) -> TokenHolder?

    /// Deletes the user with their favourites, settings and datasets in one transaction, and
    /// answers the records of the datasets removed (their local files are the caller's).
    func deleteUser(_ user: Int64) async throws(StoreError) -> [DatasetRecord]

    /// Revokes the tokens of the users `selector` names and answers the ids revoked now; a
    /// prefix that names several users throws ``StoreError/ambiguous(_:)`` and revokes none.
    func revokeTokens(_ selector: TokenSelector) async throws(StoreError) -> [Int64]

    /// Up to `limit` of the user's favourites, newest first (by id), after the favourite
    /// `before` when given.
    func favourites(user: Int64, before: Int64?, limit: Int) async throws(StoreError) -> [Favourite]

    /// Saves an article for the user. Saving an address the user already saved, from any
    /// instance and at the same moment included, changes nothing and returns the existing
    /// favourite with `created` false.
    func save(
        url: String, title: String, source: String?, publishedAt: String?, imageURL: String?, user: Int64
    ) async throws(StoreError) -> (favourite: Favourite, created: Bool)

    /// Removes one of the user's favourites; false when the user has none with that id.
    func deleteFavourite(id: Int64, user: Int64) async throws(StoreError) -> Bool

    /// The user's settings; all empty until they are first set.
    func settings(user: Int64) async throws(StoreError) -> UserSettings

    /// Replaces the user's settings whole. Of two replacements at once, the one committed last
    /// wins: the settings are always one of them, never a mix.
    func replaceSettings(_ settings: UserSettings, user: Int64) async throws(StoreError)

    /// Every dataset, oldest first.
    func allDatasets() async throws(StoreError) -> [DatasetRecord]

    /// The dataset `id`, or `nil` when the store has none.
    func dataset(id: String) async throws(StoreError) -> DatasetRecord?

    /// The datasets `owner` uploaded, oldest first.
    func datasets(owner: Int64) async throws(StoreError) -> [DatasetRecord]

    /// The points and bytes `owner`'s datasets hold.
    func datasetUsage(owner: Int64) async throws(StoreError) -> DatasetUsage

    /// Records `dataset` for its owner unless that would take the owner past `quota`, checked
    /// atomically with the insert (across instances too). `file` holds the upload; a store
    /// that ``sharesDatasetPoints`` keeps a copy of its bytes. Answers the owner's usage
    /// before the upload and whether it was recorded.
    func addDataset(
        _ dataset: DatasetRecord, file: URL, quota: DatasetUsage
    ) async throws(StoreError) -> (
        usage: DatasetUsage, added: Bool
    )

    /// Forgets `owner`'s dataset `id` and answers its record; `nil` when `owner` has no
    /// dataset of that id.
    func removeDataset(id: String, owner: Int64) async throws(StoreError) -> DatasetRecord?

    /// Whether the store keeps the datasets' points, so that an instance that did not receive
    /// an upload can fetch them (``datasetPoints(id:)``).
    var sharesDatasetPoints: Bool { get }

    /// The uploaded bytes of dataset `id`, or `nil` when the store does not keep them.
    func datasetPoints(id: String) async throws(StoreError) -> Data?

    /// Answers when the store can be reached; throws ``StoreError/unavailable(_:)`` otherwise.
    func ping() async throws(StoreError)

    /// Closes the connections; the store answers nothing afterwards.
    func close() async
}

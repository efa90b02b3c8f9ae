import Foundation

/// An article a user saved to read later.
public struct Favourite: Sendable, Equatable {
    /// The store's id of this favourite, unique across users.
    public var id: Int64
    /// The article's address; one favourite per address and user.
    public var url: String
    public var title: String
    public var source: String?
    /// When the article was published, as the provider gave it (ISO 8601, UTC).
    public var publishedAt: String?
    public var imageURL: String?
    /// When the user saved it.
    public var savedAt: Date

    public init(
        id: Int64, url: String, title: String, source: String?, publishedAt: String?,
        imageURL: String?, savedAt: Date
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.source = source
        self.publishedAt = publishedAt
        self.imageURL = imageURL
        self.savedAt = savedAt
    }
}

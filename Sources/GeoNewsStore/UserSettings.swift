/// A user's preferences, as the app shows and edits them. Values are validated by the caller.
public struct UserSettings: Sendable, Equatable, Codable {
    /// ISO 3166-1 alpha-2 code (lowercase) of the favourite news country.
    public var newsCountry: String?
    /// ISO 639-1 code of the news language.
    public var newsLanguage: String?
    /// Favourite headline categories, in the user's order.
    public var categories: [String]
    /// The language country names are shown in (a Natural Earth code such as `fr` or `zht`).
    public var namesLanguage: String?

    public init(
        newsCountry: String? = nil, newsLanguage: String? = nil, categories: [String] = [],
        namesLanguage: String? = nil
    ) {
        self.newsCountry = newsCountry
        self.newsLanguage = newsLanguage
        self.categories = categories
        self.namesLanguage = namesLanguage
    }
}

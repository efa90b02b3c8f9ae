import Foundation

/// A news service that can answer headline requests.
///
/// The raw values are the names used on the command line (`--provider`), in `config.json`
/// and in JSON output.
public enum NewsProvider: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// Google News RSS editions. Needs no key and covers all 54 news countries.
    case googleNews = "google-news"
    /// NewsAPI v2. Needs a key; since 2024 its top headlines are empty for every country but `us`.
    case newsAPI = "newsapi"
    /// GNews v4. Needs a key.
    case gnews = "gnews"
    /// GDELT DOC 2.0. Needs no key, covers all 54 news countries, asks for one request per 5 s.
    case gdelt = "gdelt"

    /// The provider's name for people ("Google News", "NewsAPI", "GNews").
    public var displayName: String {
        switch self {
        case .googleNews: return "Google News"
        case .newsAPI: return "NewsAPI"
        case .gnews: return "GNews"
        case .gdelt: return "GDELT"
        }
    }

    public var description: String { displayName }

    /// Whether the provider refuses to answer without an API key.
    public var needsKey: Bool { self == .newsAPI || self == .gnews }
}

/// NewsAPI's seven headline categories, which every provider maps onto its own names.
public enum HeadlineCategory: String, Codable, Sendable, CaseIterable {
    case business, entertainment, general, health, science, sports, technology
}

/// One news article, whichever provider it came from.
///
/// JSON form: `{"title", "source", "sourceUrl", "author", "description", "url", "imageURL",
/// "publishedAt", "language", "provider"}`, with `publishedAt` as ISO 8601 in UTC (`2024-05-01T09:30:00Z`) whatever the
/// encoder's date strategy, and absent optional fields left out.
public struct Article: Sendable, Hashable, Codable {
    /// The headline, without the " - Publisher" suffix Google News appends.
    public var title: String
    /// The publisher's name ("Le Monde"), when the provider gives one.
    public var sourceName: String?
    /// The publisher's own site (`https://www.lemonde.fr`), so a client can show where an article
    /// comes from without following a redirect: Google News' `<source url>`, GDELT's domain,
    /// GNews' `source.url`.
    public var sourceURL: URL?
    public var author: String?
    /// A short plain-text summary. Google News gives none (its description is a list of links).
    public var description: String?
    /// Where to read the article. For Google News this is a news.google.com redirect link.
    public var url: URL
    public var imageURL: URL?
    /// Publication time; `nil` when the provider omitted or garbled it.
    public var publishedAt: Date?
    /// ISO 639-1 code of the article's language when the provider says (GDELT does).
    public var language: String?
    public var provider: NewsProvider

    public init(
        title: String, sourceName: String? = nil, author: String? = nil, description: String? = nil,
        url: URL, imageURL: URL? = nil, publishedAt: Date?, provider: NewsProvider,
        sourceURL: URL? = nil, language: String? = nil
    ) {
        self.title = title
        self.sourceName = sourceName
        self.sourceURL = sourceURL
        self.language = language
        self.author = author
        self.description = description
        self.url = url
        self.imageURL = imageURL
        self.publishedAt = publishedAt
        self.provider = provider
    }

    private enum CodingKeys: String, CodingKey {
        case title
        case sourceName = "source"
        case sourceURL = "sourceUrl"
        case author, description, url, imageURL, publishedAt
        case language, provider
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        sourceName = try c.decodeIfPresent(String.self, forKey: .sourceName)
        sourceURL = try c.decodeIfPresent(URL.self, forKey: .sourceURL)
        language = try c.decodeIfPresent(String.self, forKey: .language)
        author = try c.decodeIfPresent(String.self, forKey: .author)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        url = try c.decode(URL.self, forKey: .url)
        imageURL = try c.decodeIfPresent(URL.self, forKey: .imageURL)
        publishedAt = try c.decodeIfPresent(String.self, forKey: .publishedAt).flatMap(WireTimestamp.iso8601)
        provider = try c.decode(NewsProvider.self, forKey: .provider)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(sourceName, forKey: .sourceName)
        try c.encodeIfPresent(sourceURL?.absoluteString, forKey: .sourceURL)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encodeIfPresent(author, forKey: .author)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encode(url.absoluteString, forKey: .url)
        try c.encodeIfPresent(imageURL?.absoluteString, forKey: .imageURL)
        try c.encodeIfPresent(publishedAt.map(WireTimestamp.iso8601String), forKey: .publishedAt)
        try c.encode(provider, forKey: .provider)
    }
}

extension Article {
    /// `title` without a trailing " - Publisher" when that publisher is `publisher`; both Google
    /// News and NewsAPI append one.
    static func headline(_ title: String, publisher: String?) -> String {
        guard let publisher, !publisher.isEmpty, title.hasSuffix(" - " + publisher) else { return title }
        return String(title.dropLast(publisher.count + 3))
    }
}

extension Array where Element == Article {
    /// Newest first; articles without a date keep their relative order after the dated ones.
    func sortedNewestFirst() -> [Article] {
        enumerated().sorted { lhs, rhs in
            switch (lhs.element.publishedAt, rhs.element.publishedAt) {
            case (let l?, let r?) where l != r: return l > r
            case (_?, nil): return true
            case (nil, _?): return false
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}

extension Article {
    /// `text` as a link a page may open or load: an absolute `http` or `https` URL with a host,
    /// else `nil`. Providers pass on what publishers send; a `javascript:` or `data:` "link"
    /// would run in the page that shows it, so such an article is dropped and such an image left
    /// out.
    static func webURL(_ text: String?) -> URL? {
        guard let text, let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }
}

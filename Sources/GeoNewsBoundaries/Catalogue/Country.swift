import GeoNewsGeodesy

/// One country or territory of the catalogue: a Natural Earth admin-0 feature, or an overseas
/// part of one that ISO 3166-1 codes on its own (French Guiana inside France's multipolygon).
///
/// A class, immutable: every resolution refers to one of the catalogue's entries, and passing
/// a reference costs one retain where copying its dozen strings cost a dozen (batch work
/// resolves millions of positions). Two entries are equal when their ids are.
public final class Country: Hashable, Sendable, Identifiable {
    /// Unique key within the catalogue: ISO 3166-1 alpha-3 where it has one and it is unique,
    /// otherwise Natural Earth's `ADM0_A3` (for example `KAS` for Siachen Glacier).
    public let id: String
    /// ISO 3166-1 alpha-2, upper case; `nil` for the few features without one (Bir Tawil,
    /// Spratly Is., Akrotiri, …). Not unique: Somaliland shares `SO` with Somalia.
    public let iso2: String?
    /// ISO 3166-1 alpha-3, upper case; `nil` where there is none (also for Kosovo, `XK`).
    public let iso3: String?
    /// English short name.
    public let name: String
    /// Names by lower-case Natural Earth language code (`fr`, `zh`, `zht`, …).
    public let names: [String: String]
    public let continent: String
    /// Name of the sovereign state (France for Réunion).
    public let sovereign: String
    /// ISO alpha-2 of the sovereign state, where it has one.
    public let sovereignIso2: String?
    /// True for the 54 countries that have news coverage.
    public let hasNews: Bool
    /// A point inside the country's own territory: the label anchor where that lies inside,
    /// otherwise an interior point of its largest polygon.
    public let marker: Coordinate
    /// Bounding box of the boundary as west, south, east, north degrees.
    public let bbox: BoundingBox

    public init(
        id: String, iso2: String?, iso3: String?, name: String, names: [String: String],
        continent: String, sovereign: String, sovereignIso2: String?, hasNews: Bool,
        marker: Coordinate, bbox: BoundingBox
    ) {
        self.id = id
        self.iso2 = iso2
        self.iso3 = iso3
        self.name = name
        self.names = names
        self.continent = continent
        self.sovereign = sovereign
        self.sovereignIso2 = sovereignIso2
        self.hasNews = hasNews
        self.marker = marker
        self.bbox = bbox
    }

    public static func == (a: Country, b: Country) -> Bool { a === b || a.id == b.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The name in `language` (a Natural Earth code such as `fr`), falling back to English.
    public func name(in language: String?) -> String {
        guard let language, let n = names[language.lowercased()], !n.isEmpty else { return name }
        return n
    }
}

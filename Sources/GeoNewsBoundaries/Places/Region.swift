import GeoNewsData

/// A first-level administrative division of a country (a state, a province, a region): GeoNames'
/// admin1 unit, with its ISO 3166-2 code where one exists. Read from `Data/regions.bin` (the
/// records of `Data/regions.json`), which `Scripts/build_regions.py` builds from Natural Earth's
/// admin-1 polygons, GeoNames and pycountry (docs/regions-data.md).
public struct Region: Sendable, Hashable {
    /// The country's ISO 3166-1 alpha-2 code as GeoNames gives it ("FR", "GF", "AX").
    public let country: String
    /// GeoNames' admin1 code, the join key of its dumps ("FR.84").
    public let geonamesAdmin1: String
    /// The ISO 3166-2 code ("FR-ARA"), or nil where the region has none.
    public let iso3166Code: String?
    /// The English name GeoNames gives the region ("Auvergne-Rhône-Alpes").
    public let name: String
    /// The name in each of the 26 languages where it differs from ``name`` (Natural Earth's
    /// codes: "de", "zht").
    public let names: [String: String]

    /// The name in `language` (a Natural Earth code such as "de"), else ``name``.
    public func name(in language: String?) -> String {
        language.flatMap { names[$0.lowercased()] } ?? name
    }

    /// The code a person would type: ISO 3166-2 where there is one, else GeoNames' admin1 code.
    public var code: String { iso3166Code ?? geonamesAdmin1 }
}

/// The regions of every country, and their search.
public struct RegionCatalogue: Sendable {
    /// Every region, ordered by country, then GeoNames code (the file's order).
    public let regions: [Region]
    /// Per Natural Earth feature (the file's `features`): the finer unit it is of its region,
    /// where Natural Earth is finer than the first level (a French department), else nil.
    public let subregions: [Subregion?]
    private let byCountry: [String: Range<Int>]

    public init(regions: [Region], subregions: [Subregion?] = []) {
        self.regions = regions
        self.subregions = subregions
        var byCountry: [String: Range<Int>] = [:]
        var start = 0
        for i in regions.indices where i + 1 == regions.count || regions[i + 1].country != regions[i].country {
            byCountry[regions[i].country] = start..<(i + 1)
            start = i + 1
        }
        self.byCountry = byCountry
    }

    /// The regions of the data directory's `regions.bin` (the same records as `regions.json`,
    /// which is kept for people and scripts to read).
    public static func load(from directory: DataDirectory) throws(DataError) -> RegionCatalogue {
        try RegionIndex.load(from: directory).catalogue()
    }

    /// The regions of one country (ISO alpha-2, any case), in GeoNames code order; empty for a
    /// country without regions or an unknown code.
    public func regions(inCountry iso2: String) -> ArraySlice<Region> {
        guard let range = byCountry[iso2.uppercased()] else { return [] }
        return regions[range]
    }

    /// The region with this ISO 3166-2 or GeoNames admin1 code, ignoring case ("de-by", "DE.02").
    public func region(code: String) -> Region? {
        let code = code.uppercased()
        guard code.count >= 4, let range = byCountry[String(code.prefix(2))] else { return nil }
        return regions[range].first { $0.iso3166Code == code || $0.geonamesAdmin1.uppercased() == code }
    }

    /// The search box: regions whose code, or whose name in any language, starts with `text`,
    /// ignoring case and accents, as ``Catalogue/search(_:newsOnly:)`` matches countries
    /// ("Bavaria", "Bayern", "bav" and "DE-BY" all find Bavaria). Exact codes first, then whole
    /// names, then words inside a name; ties keep the catalogue's order. `country` limits the
    /// search to one country, where a code may also be given without the country ("BY").
    public func search(_ text: String, country: String? = nil) -> [Region] {
        let query = Array(Catalogue.folded(text).utf8)
        let candidates = country.map { regions(inCountry: $0) } ?? regions[...]
        guard !query.isEmpty else { return Array(candidates) }
        var ranked: [(rank: Int, index: Int)] = []
        for i in candidates.indices {
            let r = regions[i]
            var codes = [r.geonamesAdmin1] + (r.iso3166Code.map { [$0] } ?? [])
            if country != nil { codes += codes.map { String($0.dropFirst(3)) } }
            if let rank = Catalogue.rank(of: query, codes: codes, names: [r.name] + r.names.values) { ranked.append((rank, i)) }
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map { regions[$0.index] }
    }
}

/// A Natural Earth admin-1 feature finer than the first level that holds it (a French
/// department in its region, a British local authority in its nation): its name and ISO 3166-2
/// code where it has one.
public struct Subregion: Sendable, Hashable {
    public let name: String
    public let iso3166Code: String?
}

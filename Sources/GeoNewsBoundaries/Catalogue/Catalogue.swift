import GeoNewsData
import GeoNewsGeodesy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every country and territory GeoNews knows, as built into `Data/countries.json` from
/// Natural Earth. Immutable after load and safe to share across threads.
public final class Catalogue: Sendable {
    /// All entries, in the order of the data files (sorted by ``Country/id``); the position of
    /// a country in this array is its index in `boundaries.bin` and `country-index.bin`.
    public let countries: [Country]
    /// The 54 countries with news coverage, in catalogue order.
    public let newsCountries: [Country]
    /// The Natural Earth language codes that ``Country/names`` carries.
    public let languages: [String]
    /// Where the data came from.
    public let source: DataSource

    private let byID: [String: Int]
    private let byISO2: [String: Int]

    public init(countries: [Country], languages: [String], source: DataSource) {
        self.countries = countries
        self.languages = languages
        self.source = source
        newsCountries = countries.filter(\.hasNews)
        byID = Dictionary(countries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        var iso: [String: Int] = [:]
        for (i, c) in countries.enumerated() {
            guard let code = c.iso2 else { continue }
            // Where features share a code (Somaliland and Somalia), the one whose id is the
            // alpha-3 code is the country ISO means.
            if iso[code] == nil || c.id == c.iso3 { iso[code] = i }
        }
        byISO2 = iso
    }

    /// The index of a country in ``countries``.
    public func index(of country: Country) -> Int? { byID[country.id] }

    /// The country with this ISO 3166-1 alpha-2 code, any case.
    public func country(iso2: String) -> Country? {
        byISO2[iso2.uppercased()].map { countries[$0] }
    }

    /// The country with this catalogue id (alpha-3, or Natural Earth's ADM0_A3).
    public func country(id: String) -> Country? {
        byID[id.uppercased()].map { countries[$0] }
    }

    /// Loads the catalogue of a data directory: the compiled `catalogue.bin` when present
    /// (checked against `countries.json`, so a stale one is an error), else `countries.json`.
    public static func load(from directory: DataDirectory) throws(DataError) -> Catalogue {
        let jsonPath = directory.file("countries.json")
        let json = try MappedFile(path: jsonPath)
        let compiled = directory.file("catalogue.bin")
        let catalogue: Catalogue
        if let binary = try? MappedFile(path: compiled) {
            let fingerprint = withExtendedLifetime(json) { CountryIndexFormat.fnv1a(json.bytes) }
            catalogue = try CatalogueFile.decode(binary, expectedJSONFingerprint: fingerprint)
        } else {
            catalogue = try decodeJSON(json)
        }
        #if DEBUG
        if let problem = catalogue.problem() { preconditionFailure("\(jsonPath): \(problem)") }
        #endif
        return catalogue
    }

    /// Loads `countries.json` itself, ignoring `catalogue.bin` (slower: tens of milliseconds).
    public static func loadJSON(from directory: DataDirectory) throws(DataError) -> Catalogue {
        try decodeJSON(MappedFile(path: directory.file("countries.json")))
    }

    static func decodeJSON(_ file: MappedFile) throws(DataError) -> Catalogue {
        let path = file.path
        let doc = try file.decodeJSON(CatalogueJSON.self)
        guard doc.format == 1 else {
            throw .stale(path: path, reason: "format \(doc.format), this build reads format 1")
        }
        let countries = doc.countries.map { e in
            Country(
                id: e.id, iso2: e.iso2, iso3: e.iso3, name: e.name, names: e.names,
                continent: e.continent, sovereign: e.sovereign, sovereignIso2: e.sovereignIso2,
                hasNews: e.news, marker: Coordinate(latitude: e.marker.lat, longitude: e.marker.lon),
                bbox: BoundingBox(west: e.bbox[0], south: e.bbox[1], east: e.bbox[2], north: e.bbox[3])
            )
        }
        return Catalogue(countries: countries, languages: doc.languages, source: doc.source)
    }

    /// `countries.json` compiled for fast loading, as `geonews-index` writes `catalogue.bin`.
    public static func compiled(from directory: DataDirectory) throws(DataError) -> [UInt8] {
        let json = try MappedFile(path: directory.file("countries.json"))
        let catalogue = try decodeJSON(json)
        let fingerprint = withExtendedLifetime(json) { CountryIndexFormat.fnv1a(json.bytes) }
        return CatalogueFile.encode(catalogue, jsonFingerprint: fingerprint)
    }
}

/// Provenance of the boundary data.
public struct DataSource: Codable, Hashable, Sendable {
    public let name: String
    public let version: String
    public let file: String
    public let sha256: String
    public let licence: String
    public let credit: String
}

private struct CatalogueJSON: Decodable {
    struct Entry: Decodable {
        struct Marker: Decodable { let lat: Double; let lon: Double }
        let id: String
        let iso2: String?
        let iso3: String?
        let name: String
        let names: [String: String]
        let continent: String
        let sovereign: String
        let sovereignIso2: String?
        let news: Bool
        let marker: Marker
        let bbox: [Double]
    }
    let format: Int
    let source: DataSource
    let languages: [String]
    let countries: [Entry]
}

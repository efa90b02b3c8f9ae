#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One catalogue entry as JSON: an element of `geonews countries --json` and of a country
/// search answer.
///
/// `iso2`/`iso3` are `null` for the features ISO does not code; `news` is true for the 54
/// news countries; `marker` is the point a map shows for the country, in degrees; `bbox` is
/// `[west, south, east, north]` in degrees (west > east when it crosses the antimeridian).
public struct CountryReport: Encodable, Sendable {
    /// A position in degrees.
    public struct Marker: Encodable, Sendable { public let lat: Double; public let lon: Double }
    public let id: String
    public let iso2: String?
    public let iso3: String?
    public let name: String
    public let continent: String
    public let sovereign: String
    public let news: Bool
    public let marker: Marker
    public let bbox: [Double]

    /// The entry for `c`, named in `language` (`nil` or an unknown code gives English).
    public init(_ c: Country, language: String?) {
        id = c.id
        iso2 = c.iso2
        iso3 = c.iso3
        name = c.name(in: language)
        continent = c.continent
        sovereign = c.sovereign
        news = c.hasNews
        marker = Marker(lat: c.marker.latitude, lon: c.marker.longitude)
        bbox = [c.bbox.west, c.bbox.south, c.bbox.east, c.bbox.north]
    }

    /// `countries` as a JSON array with sorted keys and unescaped slashes, in the given order.
    public static func jsonData(_ countries: [Country], language: String?) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(countries.map { CountryReport($0, language: language) })
    }
}

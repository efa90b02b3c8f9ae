#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One region as JSON: an element of `geonews regions --json` and of `geonews countries
/// --search --json`'s `regions`. The keys are those of a position's `region` answer:
/// `iso3166_2` (`null` where the region has no ISO 3166-2 code), `geonamesAdmin1` and `name`
/// (in the language asked, else English), with the region's `country` (ISO alpha-2).
public struct RegionReport: Encodable, Sendable {
    public let country: String
    public let iso3166Code: String?
    public let geonamesAdmin1: String
    public let name: String

    /// The entry for `r`, named in `language` (`nil` or a language without a name of its own
    /// gives GeoNames' English name).
    public init(_ r: Region, language: String?) {
        country = r.country
        iso3166Code = r.iso3166Code
        geonamesAdmin1 = r.geonamesAdmin1
        name = r.name(in: language)
    }

    private enum CodingKeys: String, CodingKey {
        case country, geonamesAdmin1, name
        case iso3166Code = "iso3166_2"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(country, forKey: .country)
        try c.encode(iso3166Code, forKey: .iso3166Code)  // null, not left out, where there is none
        try c.encode(geonamesAdmin1, forKey: .geonamesAdmin1)
        try c.encode(name, forKey: .name)
    }

    /// `regions` as a JSON array with sorted keys and unescaped slashes, in the given order.
    public static func jsonData(_ regions: some Sequence<Region>, language: String?) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(regions.map { RegionReport($0, language: language) })
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoNewsGeodesy

/// Position → containing country, nearest country at sea, and the suggested news country.
///
/// The rules, in order:
/// 1. Inside one of the 54 news countries: that country, reason ``SuggestionReason/inside``,
///    distance 0.
/// 2. Inside a territory whose sovereign is a news country (Réunion → France): the sovereign,
///    reason ``SuggestionReason/sovereign``, distance 0.
/// 3. At sea within ``nearShoreKm`` of the land of a country that rules 1–2 would answer: that
///    news country, reason ``SuggestionReason/offshore``, with the distance to the land.
///    Natural Earth's coastline is tight, so harbours and coastal towns often fall just
///    outside it.
/// 4. Anywhere else (a country without news coverage, the open sea): the news country whose
///    marker is nearest on the great circle, reason ``SuggestionReason/nearestMarker``, with
///    that distance.
///
/// Immutable and lock-free: one resolver serves any number of threads. Only the memory-mapped
/// ``CountryIndex`` is touched per query; GEOS is not on this path.
public final class CountryResolver: CountryResolving, Sendable {
    public let catalogue: Catalogue
    public let index: CountryIndex
    /// Within this many kilometres of a news country's land, a point at sea is suggested that
    /// country (25 km: the territorial sea is 22 km, and Natural Earth's 10 m coastline
    /// leaves most coastal towns within a few kilometres of it).
    public let nearShoreKm: Double
    /// How far a point at sea looks for the nearest country; `.infinity` finds it anywhere on
    /// Earth, a smaller bound (batch work) keeps open-sea rows cheap.
    public let seaSearchKm: Double

    private let newsMarkers: [(index: Int, lat: Double, lon: Double, cosLat: Double)]
    /// Per catalogue index: the news country that answers for it (itself, or its sovereign), if any.
    private let newsCountry: [Int?]

    public init(catalogue: Catalogue, index: CountryIndex, seaSearchKm: Double = .infinity) {
        self.catalogue = catalogue
        self.index = index
        nearShoreKm = index.nearShoreKm
        self.seaSearchKm = max(seaSearchKm, index.nearShoreKm)
        newsCountry = catalogue.countries.map { c in
            if c.hasNews { return catalogue.index(of: c) }
            guard let s = c.sovereignIso2, let sovereign = catalogue.country(iso2: s), sovereign.hasNews else { return nil }
            return catalogue.index(of: sovereign)
        }
        newsMarkers = catalogue.countries.enumerated().compactMap { i, c -> (index: Int, lat: Double, lon: Double, cosLat: Double)? in
            guard c.hasNews else { return nil }
            let φ = c.marker.latitude * .pi / 180
            return (i, φ, c.marker.longitude * .pi / 180, cos(φ))
        }
    }

    /// Loads the catalogue and the prebuilt index from a data directory.
    public static func load(from directory: DataDirectory, seaSearchKm: Double = .infinity) throws(DataError) -> CountryResolver {
        let catalogue = try Catalogue.load(from: directory)
        let index = try CountryIndex(path: directory.file("country-index.bin"), catalogueIDs: catalogue.countries.map(\.id))
        return CountryResolver(catalogue: catalogue, index: index, seaSearchKm: seaSearchKm)
    }

    /// The country or territory whose polygons hold the position, or `nil` at sea.
    public func containingCountry(_ position: Coordinate) -> Country? {
        index.countryIndex(at: position).map { catalogue.countries[$0] }
    }

    public func resolve(_ position: Coordinate) -> Resolution {
        if let i = index.countryIndex(at: position) {
            let country = catalogue.countries[i]
            let suggestion: Suggestion
            if let news = newsCountry[i] {
                suggestion = Suggestion(country: catalogue.countries[news], reason: news == i ? .inside : .sovereign, distanceKm: 0)
            } else {
                suggestion = nearestMarker(position)
            }
            return Resolution(position: position, country: country, nearest: nil, suggestion: suggestion)
        }
        var nearest: NearestCountry?
        var news: Int?
        if seaSearchKm.isFinite && seaSearchKm <= nearShoreKm
            && !index.mayBeNearShore(longitude: position.longitude, latitude: position.latitude) {
            nearest = nil
        } else if let n = index.nearestLand(to: position, maxKm: seaSearchKm) {
            nearest = NearestCountry(country: catalogue.countries[n.countryIndex], distanceKm: n.distanceKm)
            if n.distanceKm <= nearShoreKm { news = newsCountry[n.countryIndex] }
        }
        if let news, let nearest {
            return Resolution(position: position, country: nil, nearest: nearest,
                              suggestion: Suggestion(country: catalogue.countries[news], reason: .offshore, distanceKm: nearest.distanceKm))
        }
        return Resolution(position: position, country: nil, nearest: nearest, suggestion: nearestMarker(position))
    }

    /// The news country whose marker is nearest on the great circle.
    public func nearestMarker(_ position: Coordinate) -> Suggestion {
        let φ = position.latitude * .pi / 180, λ = position.longitude * .pi / 180
        let cφ = cos(φ)
        var bestH = Double.infinity
        var best = newsMarkers[0].index
        // Compare haversine terms; only the winner pays for asin.
        for m in newsMarkers {
            let s1 = sin((m.lat - φ) / 2), s2 = sin((m.lon - λ) / 2)
            let h = s1 * s1 + cφ * m.cosLat * s2 * s2
            if h < bestH {
                bestH = h
                best = m.index
            }
        }
        let country = catalogue.countries[best]
        return Suggestion(country: country, reason: .nearestMarker,
                          distanceKm: GreatCircle.distance(from: position, to: country.marker))
    }
}

import GeoNewsGeodesy

/// Why a news country was suggested for a position.
public enum SuggestionReason: String, Sendable, Codable, Hashable {
    /// The position lies inside that news country's polygons.
    case inside
    /// The position lies in a territory without news coverage of its own whose sovereign
    /// state is a news country: Réunion or French Guiana (France), Svalbard (Norway), Puerto
    /// Rico or Guam (United States), Gibraltar (United Kingdom). Sovereignty is Natural Earth's
    /// `SOVEREIGNT`, in the data set's German point of view.
    case sovereign
    /// The position is at sea within ``CountryResolver/nearShoreKm`` of the land of that news
    /// country (or of a territory it is sovereign over): coastal towns and harbours that
    /// Natural Earth's tight coastline leaves outside.
    case offshore
    /// Neither: the news country whose marker is nearest on the great circle.
    case nearestMarker = "nearest-marker"
}

/// The suggested news country and why.
public struct Suggestion: Hashable, Sendable {
    public let country: Country
    public let reason: SuggestionReason
    /// Kilometres: 0 for ``SuggestionReason/inside`` and ``SuggestionReason/sovereign``, the
    /// distance to the border for
    /// ``SuggestionReason/offshore``, the great-circle distance to the marker for
    /// ``SuggestionReason/nearestMarker``.
    public let distanceKm: Double

    public init(country: Country, reason: SuggestionReason, distanceKm: Double) {
        self.country = country
        self.reason = reason
        self.distanceKm = distanceKm
    }
}

/// The nearest country to a position at sea, and how far its border is.
public struct NearestCountry: Hashable, Sendable {
    public let country: Country
    /// Great-circle kilometres from the position to the nearest point of that country's border.
    public let distanceKm: Double

    public init(country: Country, distanceKm: Double) {
        self.country = country
        self.distanceKm = distanceKm
    }
}

/// Everything GeoNews says about one position.
public struct Resolution: Hashable, Sendable {
    public let position: Coordinate
    /// The country or territory whose polygon holds the position; `nil` at sea.
    public let country: Country?
    /// At sea only: the nearest country and its border distance. `nil` on land, and at sea
    /// when no border lies within the search distance of the resolver that produced it.
    public let nearest: NearestCountry?
    public let suggestion: Suggestion
    /// The IANA time zone that holds the position, the open ocean's `Etc/GMT±N` included;
    /// `nil` only from a resolver without time-zone data.
    public let timeZone: String?
    /// Inside a country: great-circle kilometres to the nearest edge of its area (a land border
    /// or the limit of its territorial sea), for judging an answer near a border. `nil` at sea
    /// and from a resolver without area data.
    public let borderDistanceKm: Double?

    public init(
        position: Coordinate, country: Country?, nearest: NearestCountry?, suggestion: Suggestion,
        timeZone: String? = nil, borderDistanceKm: Double? = nil
    ) {
        self.position = position
        self.country = country
        self.nearest = nearest
        self.suggestion = suggestion
        self.timeZone = timeZone
        self.borderDistanceKm = borderDistanceKm
    }
}

/// Anything that turns a position into a ``Resolution``. Implementations are immutable after
/// load and safe to call from many threads at once.
public protocol CountryResolving: Sendable {
    func resolve(_ position: Coordinate) -> Resolution
}

/// A resolver that answers by index as well (see ``IndexedResolution``), for a batch that
/// writes millions of rows: the catalogue and zones its indexes point into, and the answers
/// of many positions at once.
public protocol IndexedCountryResolving: CountryResolving {
    var catalogue: Catalogue { get }
    /// The IANA ids ``IndexedResolution/zone`` points into.
    var zoneIDs: [String] { get }
    /// Writes the answer of every position in order to the first `positions.count` elements of
    /// `results` (a trivial type: what they held before does not matter), each what
    /// ``resolve(_:)`` gives, by index. Traps when `results` is shorter than `positions`.
    func resolveIndexed(_ positions: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<IndexedResolution>)
}

extension IndexedCountryResolving {
    /// ``resolveIndexed(_:into:)``, appending to an array.
    public func resolveIndexed(_ positions: UnsafeBufferPointer<Coordinate>, appendingTo results: inout [IndexedResolution]) {
        results.append(
            contentsOf: [IndexedResolution](unsafeUninitializedCapacity: positions.count) { buffer, count in
                resolveIndexed(positions, into: UnsafeMutableBufferPointer(rebasing: buffer[..<positions.count]))
                count = positions.count
            })
    }
}

import GeoNewsGeodesy

/// A ``Resolution`` by index: the countries as catalogue indexes and the time zone as an index,
/// with no string or object to count references to. What a batch of millions of rows
/// resolves into and writes from (see ``CountryResolver/resolveIndexed(_:measuring:)``); the
/// resolver that made it turns it into a ``Resolution`` with
/// ``CountryResolver/resolution(of:)``.
public struct IndexedResolution: Sendable, Equatable {
    public var position: Coordinate
    /// The catalogue index of the country or territory that holds the position; -1 at sea.
    public var country: Int32 = -1
    /// At sea, the catalogue index of the nearest country within the search's reach, else -1.
    public var nearest: Int32 = -1
    /// The great-circle km to ``nearest``'s land (0 when there is none).
    public var nearestKm: Double = 0
    /// The catalogue index of the suggested news country.
    public var suggested: Int32
    public var reason: SuggestionReason
    /// ``Suggestion/distanceKm``.
    public var distanceKm: Double
    /// The zone's index in the resolver's ``CountryResolver/zoneIDs``, or, below 0, the open
    /// ocean's `Etc/GMT±N` (see ``nauticalZone(longitude:)``).
    public var zone: Int32
    /// ``Resolution/borderDistanceKm``.
    public var borderDistanceKm: Double?

    public init(position: Coordinate, suggested: Int32, reason: SuggestionReason, distanceKm: Double, zone: Int32) {
        self.position = position
        self.suggested = suggested
        self.reason = reason
        self.distanceKm = distanceKm
        self.zone = zone
    }

    /// The zone's IANA id: from `zoneIDs` (the resolver's) or the nautical band's.
    @inline(__always)
    public func zoneID(in zoneIDs: [String]) -> String {
        zone >= 0 ? zoneIDs[Int(zone)] : Self.nauticalZoneID(zone)
    }

    /// The ``zone`` of the 15° nautical band around a longitude, where no region holds a
    /// position: -1 - (n + 12) for the band n = -12…12 east of Greenwich.
    @inline(__always)
    public static func nauticalZone(longitude: Double) -> Int32 {
        // |longitude| ≤ 180 in a coordinate, and NaN is band 0: the band fits before the cast.
        let n = longitude.isFinite ? min(max((longitude / 15).rounded(), -12), 12) : 0
        return -1 - (Int32(n) + 12)
    }

    /// Every nautical ``zone``: the codes -1 through -25.
    public static let nauticalZones: ClosedRange<Int32> = -25 ... -1

    /// `Etc/GMT±N` for a nautical ``zone`` (POSIX signs: west of Greenwich is +).
    public static func nauticalZoneID(_ zone: Int32) -> String {
        let n = -Int(zone) - 13
        return n == 0 ? "Etc/GMT" : n > 0 ? "Etc/GMT-\(n)" : "Etc/GMT+\(-n)"
    }
}

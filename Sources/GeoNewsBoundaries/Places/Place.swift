import GeoNewsGeodesy

/// A populated place of GeoNames (`cities500`: every place of 500 people or more, and the seats
/// of administrative divisions), as `Data/places.tsv.gz` holds it.
public struct Place: Hashable, Sendable {
    /// GeoNames' name of the place (its `name` column: the local name in Latin letters where
    /// GeoNames has one, as `Saint-Étienne`, `Xi'an`).
    public let name: String
    /// GeoNames' id (`https://www.geonames.org/<id>`).
    public let geonameID: UInt32
    /// The population GeoNames records; 0 where it records none.
    public let population: UInt32
    /// GeoNames' position, to 1e-5° as the source gives it.
    public let coordinate: Coordinate
    /// ISO 3166-1 alpha-2 code of the country GeoNames puts the place in.
    public let countryISO2: String
    /// GeoNames' admin1 code within that country (`84` of `FR.84`); empty where GeoNames has none.
    public let admin1: String

    public init(name: String, geonameID: UInt32, population: UInt32, coordinate: Coordinate, countryISO2: String, admin1: String) {
        self.name = name
        self.geonameID = geonameID
        self.population = population
        self.coordinate = coordinate
        self.countryISO2 = countryISO2
        self.admin1 = admin1
    }

    /// The GeoNames admin1 key (`FR.84`), or `nil` where GeoNames has no admin1 code.
    public var geonamesAdmin1: String? { admin1.isEmpty || admin1 == "00" ? nil : countryISO2 + "." + admin1 }
}

/// The place nearest a position and its great-circle distance.
public struct NearestPlace: Hashable, Sendable {
    public let place: Place
    /// Great-circle kilometres (``GreatCircle/distance(from:to:)``) from the position to the place.
    public let distanceKm: Double

    public init(place: Place, distanceKm: Double) {
        self.place = place
        self.distanceKm = distanceKm
    }
}

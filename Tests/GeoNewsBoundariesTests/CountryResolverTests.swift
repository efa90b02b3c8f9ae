import GeoNewsBoundaryBuilding
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// Positions with known answers, each also checked against GEOS's exact polygon test.
final class CountryResolverTests: XCTestCase {
    var resolver: CountryResolver!
    // XCTest runs one test at a time here; the GEOS locator (one context) is never shared across threads.
    nonisolated(unsafe) static let exactLocator: Result<ExactCountryLocator, Error> = Result {
        try ExactCountryLocator(boundaries: BoundaryFile(directory: TestData.directory))
    }

    override func setUpWithError() throws {
        resolver = try TestData.resolver()
    }

    private func resolve(_ lat: Double, _ lon: Double) -> Resolution {
        resolver.resolve(Coordinate(latitude: lat, longitude: lon))
    }

    /// The id GEOS gives for the point, nil at sea.
    private func exactID(_ lat: Double, _ lon: Double) throws -> String? {
        let locator = try Self.exactLocator.get()
        return try locator.countryIndex(at: Coordinate(latitude: lat, longitude: lon)).map { resolver.catalogue.countries[$0].id }
    }

    /// A city well inside each of the 54 news countries.
    static let newsCities: [(String, Double, Double)] = [
        ("AE", 24.4539, 54.3773), ("AR", -31.4201, -64.1888), ("AT", 48.2082, 16.3738), ("AU", -35.2809, 149.1300),
        ("BE", 50.8503, 4.3517), ("BG", 42.6977, 23.3219), ("BR", -15.7939, -47.8828), ("CA", 45.4215, -75.6972),
        ("CH", 46.9480, 7.4474), ("CN", 39.9042, 116.4074), ("CO", 4.7110, -74.0721), ("CU", 22.4069, -79.9647),
        ("CZ", 50.0755, 14.4378), ("DE", 52.5200, 13.4050), ("EG", 30.0444, 31.2357), ("FR", 48.8566, 2.3522),
        ("GB", 51.5074, -0.1278), ("GR", 37.9838, 23.7275), ("HK", 22.3193, 114.1694), ("HU", 47.4979, 19.0402),
        ("ID", -6.2088, 106.8456), ("IE", 53.4239, -7.9407), ("IL", 31.2518, 34.7913), ("IN", 28.6139, 77.2090),
        ("IT", 41.9028, 12.4964), ("JP", 35.6762, 139.6503), ("KR", 37.5665, 126.9780), ("LT", 54.6872, 25.2797),
        ("LV", 56.9496, 24.1052), ("MA", 34.0181, -5.0078), ("MX", 19.4326, -99.1332), ("MY", 3.1390, 101.6869),
        ("NG", 9.0765, 7.3986), ("NL", 52.0907, 5.1214), ("NO", 61.1153, 10.4662), ("NZ", -37.7870, 175.2793),
        ("PH", 14.6760, 121.0437), ("PL", 52.2297, 21.0122), ("PT", 38.5714, -7.9135), ("RO", 44.4268, 26.1025),
        ("RS", 44.7866, 20.4489), ("RU", 55.7558, 37.6173), ("SA", 24.7136, 46.6753), ("SE", 59.8586, 17.6389),
        ("SG", 1.3521, 103.8198), ("SI", 46.0569, 14.5058), ("SK", 49.2231, 18.7394), ("TH", 13.7563, 100.5018),
        ("TR", 39.9334, 32.8597), ("TW", 25.0330, 121.5654), ("UA", 50.4501, 30.5234), ("US", 39.7392, -104.9903),
        ("VE", 10.4806, -66.9036), ("ZA", -26.2041, 28.0473),
    ]

    func testACityInEachNewsCountryIsInsideIt() throws {
        XCTAssertEqual(Set(Self.newsCities.map(\.0)).count, 54)
        XCTAssertEqual(Set(resolver.catalogue.newsCountries.compactMap(\.iso2)), Set(Self.newsCities.map(\.0)))
        for (iso2, lat, lon) in Self.newsCities {
            let r = resolve(lat, lon)
            XCTAssertEqual(r.country?.iso2, iso2, "\(iso2) city at \(lat), \(lon)")
            XCTAssertEqual(r.suggestion.country.iso2, iso2)
            XCTAssertEqual(r.suggestion.reason, .inside)
            XCTAssertEqual(r.suggestion.distanceKm, 0)
            XCTAssertEqual(try exactID(lat, lon), r.country?.id, "GEOS disagrees at \(iso2)")
        }
    }

    func testPointInLesothoIsNotSouthAfrica() throws {
        let r = resolve(-29.6, 28.2)
        XCTAssertEqual(r.country?.iso2, "LS")
        XCTAssertEqual(r.suggestion.country.iso2, "ZA")
        XCTAssertEqual(r.suggestion.reason, .nearestMarker)
        XCTAssertEqual(r.suggestion.distanceKm, GreatCircle.distance(from: r.position, to: r.suggestion.country.marker), accuracy: 1e-9)
        XCTAssertEqual(try exactID(-29.6, 28.2), "LSO")
    }

    func testEnclavesInsideItalyAndMicrostates() throws {
        let cases: [(Double, Double, String)] = [
            (43.9424, 12.4578, "SM"), (41.9029, 12.4534, "VA"), (41.8986, 12.4768, "IT"),
            (43.7384, 7.4246, "MC"), (1.3521, 103.8198, "SG"), (22.3193, 114.1694, "HK"),
            (42.4636, 1.9786, "ES"),  // Llívia, Spain's enclave in France
        ]
        for (lat, lon, iso2) in cases {
            let r = resolve(lat, lon)
            XCTAssertEqual(r.country?.iso2, iso2, "\(lat), \(lon)")
            XCTAssertEqual(try exactID(lat, lon), r.country?.id)
        }
        XCTAssertEqual(resolve(43.9424, 12.4578).suggestion.country.iso2, "IT")
        XCTAssertEqual(resolve(41.9029, 12.4534).suggestion.reason, .nearestMarker)
    }

    func testBothSidesOfTheAntimeridian() throws {
        let cases: [(Double, Double, String)] = [
            (-16.4167, 179.3833, "FJ"), (-18.2, -178.8, "FJ"),  // Vanua Levu; Lakeba in the Lau group
            (65.5, 175.0, "RU"), (65.58, -171.0, "RU"),  // Chukotka west and east of 180°
            (1.87, -157.4, "KI"),  // Kiritimati
        ]
        for (lat, lon, iso2) in cases {
            XCTAssertEqual(resolve(lat, lon).country?.iso2, iso2, "\(lat), \(lon)")
            XCTAssertEqual(try exactID(lat, lon), resolve(lat, lon).country?.id)
        }
        // On the antimeridian itself, either spelling of the meridian is the same place.
        XCTAssertEqual(resolve(66, 180).country?.iso2, "RU")
        XCTAssertEqual(resolve(66, -180).country?.iso2, "RU")
        XCTAssertEqual(resolve(-16.5, 180).country, resolve(-16.5, -180).country)
    }

    func testThePoles() {
        let north = resolve(90, 0)
        XCTAssertNil(north.country)
        XCTAssertEqual(north.nearest?.country.iso2, "GL")
        XCTAssertEqual(north.nearest?.distanceKm ?? 0, 708, accuracy: 15)
        XCTAssertEqual(north.suggestion.reason, .nearestMarker)
        XCTAssertEqual(resolve(90, 123).suggestion.country, north.suggestion.country, "every longitude is the same pole")
        let south = resolve(-90, 0)
        XCTAssertEqual(south.country?.iso2, "AQ")
        XCTAssertEqual(south.suggestion.reason, .nearestMarker)
    }

    func testAShipInTheAtlanticGetsTheNearestMarker() throws {
        let r = resolve(40, -30)
        XCTAssertNil(r.country)
        XCTAssertNil(try exactID(40, -30))
        XCTAssertEqual(r.nearest?.country.iso2, "PT")  // the Azores
        XCTAssertGreaterThan(r.nearest?.distanceKm ?? 0, 25)
        XCTAssertEqual(r.suggestion.reason, .nearestMarker)
        // The suggestion really is the nearest marker.
        let distances = resolver.catalogue.newsCountries.map { GreatCircle.distance(from: r.position, to: $0.marker) }
        XCTAssertEqual(r.suggestion.distanceKm, distances.min()!, accuracy: 1e-9)
    }

    func testOpenPacificHasNoNearbyLand() {
        let r = resolve(0, -140)
        XCTAssertNil(r.country)
        XCTAssertGreaterThan(r.nearest?.distanceKm ?? 0, 500)
        XCTAssertEqual(r.suggestion.reason, .nearestMarker)
    }

    func testCoastalTownsOutsideNaturalEarthsCoastlineAreInsideTheirCountry() throws {
        // Venice lies in its lagoon, outside Natural Earth's tight coastline: it was offshore of
        // Italy; OpenStreetMap's land and territorial sea hold it.
        XCTAssertNil(try exactID(45.4408, 12.3155))
        let r = resolve(45.4408, 12.3155)
        XCTAssertEqual(r.country?.iso2, "IT")
        XCTAssertEqual(r.suggestion.reason, .inside)
        XCTAssertNil(r.nearest)
        // Longyearbyen, Svalbard: inside a territory whose sovereign is Norway.
        let svalbard = resolve(78.2232, 15.6267)
        XCTAssertEqual(svalbard.country?.iso2, "SJ")
        XCTAssertEqual(svalbard.suggestion.country.iso2, "NO")
        XCTAssertEqual(svalbard.suggestion.reason, .sovereign)
    }

    func testLuxembourgGetsTheNearestMarkerAndSaysSo() {
        let r = resolve(49.6116, 6.1319)
        XCTAssertEqual(r.country?.iso2, "LU")
        XCTAssertEqual(r.suggestion.reason, .nearestMarker)
        XCTAssertEqual(r.suggestion.country.iso2, "BE")
        XCTAssertEqual(r.suggestion.distanceKm, GreatCircle.distance(from: r.position, to: r.suggestion.country.marker), accuracy: 1e-9)
        let andorra = resolve(42.5063, 1.5218)
        XCTAssertEqual(andorra.country?.iso2, "AD")
        XCTAssertEqual(andorra.suggestion.reason, .nearestMarker)
    }

    func testOverseasPartsKeepTheirOwnCodeAndSuggestTheirSovereign() throws {
        let cases: [(Double, Double, String, String)] = [
            (-21.1151, 55.5364, "RE", "FR"), (4.9224, -52.3135, "GF", "FR"), (16.17, -61.65, "GP", "FR"),
            (14.6415, -61.0242, "MQ", "FR"), (-12.83, 45.14, "YT", "FR"), (78.6, 16.3, "SJ", "NO"),
            (18.4655, -66.1057, "PR", "US"),
        ]
        for (lat, lon, territory, sovereign) in cases {
            let r = resolve(lat, lon)
            XCTAssertEqual(r.country?.iso2, territory, "\(lat), \(lon)")
            XCTAssertEqual(r.suggestion.country.iso2, sovereign)
            XCTAssertEqual(r.suggestion.reason, .sovereign)
        }
    }

    func testMarkersLieInsideTheirOwnCountry() {
        // Every news country's marker; of the other features, those Natural Earth draws where
        // OpenStreetMap has another country or open sea (reefs and rocks such as Scarborough
        // Reef or the Spratly Islands, Natural Earth's oversized Monaco) may not be.
        for c in resolver.catalogue.newsCountries {
            XCTAssertEqual(resolver.containingCountry(c.marker)?.id, c.id, "marker of \(c.id)")
        }
        let inside = resolver.catalogue.countries.filter { resolver.containingCountry($0.marker)?.id == $0.id }
        XCTAssertGreaterThan(Double(inside.count), 0.95 * Double(resolver.catalogue.countries.count))
    }
}

import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The territorial sea is measured from OpenStreetMap's land (`land-index.bin`), so islands
/// that Natural Earth's 1:10m coast leaves out keep their country and their 12 miles.
final class OpenStreetMapCoastTests: XCTestCase {
    var resolver: CountryResolver!

    override func setUpWithError() throws {
        resolver = try TestData.resolver()
    }

    /// Airports and villages on islands whose country nobody disputes, none of them on Natural
    /// Earth's land: before the land came from OpenStreetMap, every one had no country.
    func testAirportsAndVillagesOnIslandsNaturalEarthLacksHaveTheirCountry() {
        let places: [(lat: Double, lon: Double, iso2: String, what: String)] = [
            (-14.6667, 145.4500, "AU", "Lizard Island airport, Queensland"),
            (-9.58333, 143.7670, "AU", "Darnley Island airport, Torres Strait"),
            (-15.5736, -146.41499, "PF", "Apataki airport, Tuamotu"),
            (25.1462, 52.8737, "AE", "Das Island airport, Abu Dhabi"),
            (8.70833, 171.23333, "MH", "Maloelap airport, Marshall Islands"),
            (7.63665, 149.42788, "FM", "Pulap village, Micronesia"),
            (30.7196, 122.80759, "CN", "Shengshan, Zhoushan islands"),
            (-19.5164, 170.23199, "VU", "Futuna airport, Vanuatu"),
        ]
        for p in places {
            let position = Coordinate(latitude: p.lat, longitude: p.lon)
            let r = resolver.resolve(position)
            XCTAssertEqual(r.country?.iso2, p.iso2, p.what)
            XCTAssertNil(r.nearest, "\(p.what): a position with a country has no nearest land")
            XCTAssertEqual(resolver.containingCountry(position)?.iso2, p.iso2, p.what)
        }
    }

    /// Natural Earth's land is not the land any more: a point on an island only OpenStreetMap
    /// draws is on land, and one off its coast is at sea, measured from that coast.
    func testTheLandIsOpenStreetMapsNotNaturalEarths() throws {
        let naturalEarth = try TestData.naturalEarthIndex()
        let lizard = Coordinate(latitude: -14.6667, longitude: 145.4500)
        XCTAssertNil(naturalEarth.countryIndex(at: lizard), "Natural Earth lacks Lizard Island")
        XCTAssertEqual(resolver.index.countryIndex(at: lizard).map { resolver.catalogue.countries[$0].iso2 }, "AU")
        // 0.05° east of the airport, at sea: Lizard Island's east coast is 1–3 km east of the
        // airport, so its land is the nearest, a few kilometres west.
        let offshore = Coordinate(latitude: -14.6667, longitude: 145.5000)
        XCTAssertNil(resolver.index.countryIndex(at: offshore))
        let land = try XCTUnwrap(resolver.index.nearestLand(to: offshore))
        XCTAssertEqual(resolver.catalogue.countries[land.countryIndex].iso2, "AU")
        XCTAssertGreaterThan(land.distanceKm, 1)
        XCTAssertLessThan(land.distanceKm, 5)
    }
}

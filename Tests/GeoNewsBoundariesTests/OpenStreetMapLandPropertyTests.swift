import Foundation
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// Properties checked against OpenStreetMap's land itself, on 20,000 seeded points per file
/// that `python3 Scripts/build_land.py --fixtures` draws from the same polygons the land index
/// is built from (`--check-fixtures` redraws them): on the land, 1–21 km off its coast, and
/// farther than 23 km from every coast. None lies south of 60° S, where Antarctica's regions
/// hold throughout.
///
/// Each position is resolved as a row of `geonews resolve` is (``ResolutionMeasures/batch``):
/// the rules decide the country the same way for a single position, and the batch skips the
/// border distance and the unbounded search for the nearest country that these checks do not
/// read.
final class OpenStreetMapLandPropertyTests: XCTestCase {
    var resolver: CountryResolver!

    override func setUpWithError() throws {
        resolver = try TestData.resolver()
    }

    /// The fixture's positions, with its `km` column where it has one.
    static func fixture(_ name: String) throws -> [(position: Coordinate, km: Double?)] {
        let url = TestData.packageRoot.appendingPathComponent("Tests/GeoNewsBoundariesTests/Fixtures/\(name)")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let header = lines.first.map { $0.split(separator: ",").map(String.init) } ?? []
        let kmColumn = header.firstIndex(of: "km")
        guard header.prefix(2) == ["lat", "lon"] else { throw CocoaError(.fileReadCorruptFile) }
        return try lines.dropFirst().enumerated().map { n, line in
            let f = line.split(separator: ",")
            guard f.count == header.count, let lat = Double(f[0]), let lon = Double(f[1]) else {
                throw NSError(domain: name, code: n + 2, userInfo: [NSLocalizedDescriptionKey: "\(name) line \(n + 2): \(line)"])
            }
            return (Coordinate(latitude: lat, longitude: lon), kmColumn.flatMap { Double(f[$0]) })
        }
    }

    /// Positions that break a rule, as lines for a failure message (the first ten).
    private func report(_ broken: [String], of count: Int, _ rule: String) {
        XCTAssertEqual(broken.count, 0, "\(broken.count) of \(count) positions \(rule):\n" + broken.prefix(10).joined(separator: "\n"))
    }

    func testEveryPointOnOpenStreetMapsLandHasTheCountryWhoseAreaHoldsIt() throws {
        let points = try Self.fixture("osm-land-points.csv")
        XCTAssertEqual(points.count, 20_000)
        var broken: [String] = []
        for (p, _) in points {
            let r = resolver.resolve(p, measuring: .batch)
            let region = resolver.areas.region(at: p)
            let expected = region.flatMap(resolver.areas.country(ofRegion:)).map { resolver.catalogue.countries[$0].id }
            guard let got = r.country?.id else {
                broken.append("\(p.latitude), \(p.longitude): no country (area \(expected ?? "none"))")
                continue
            }
            if let expected, got != expected { broken.append("\(p.latitude), \(p.longitude): \(got), its area is \(expected)'s") }
            // The land index rounds vertices to 2^-16° (at most 0.85 m from OpenStreetMap's), so
            // a point that close to a rock's shore may fall just outside it: its land is then
            // within 2 m.
            if resolver.index.countryIndex(at: p) == nil {
                let land = resolver.index.nearestLand(to: p, maxKm: 1)
                if land.map({ $0.distanceKm > 0.002 }) ?? true {
                    broken.append(
                        "\(p.latitude), \(p.longitude): not land in the land index, land \(land.map { "\($0.distanceKm) km" } ?? "none") away"
                    )
                }
            }
        }
        report(broken, of: points.count, "on OpenStreetMap's land break the rule")
    }

    func testEveryPointWithinTwentyOneKilometresOfTheCoastHasACountry() throws {
        let points = try Self.fixture("osm-near-coast-points.csv")
        XCTAssertEqual(points.count, 20_000)
        var broken: [String] = []
        for (p, km) in points {
            let r = resolver.resolve(p, measuring: .batch)
            if r.country == nil {
                let land = resolver.index.nearestLand(to: p, maxKm: 50)
                broken.append(
                    "\(p.latitude), \(p.longitude) (\(km ?? .nan) km off the coast): no country; nearest land \(land.map { "\($0.distanceKm) km" } ?? "none")"
                )
            }
        }
        report(broken, of: points.count, "1–21 km off OpenStreetMap's coast have no country")
    }

    func testNoPointFartherThanTwentyThreeKilometresFromEveryCoastHasACountry() throws {
        let points = try Self.fixture("osm-far-sea-points.csv")
        XCTAssertEqual(points.count, 20_000)
        var broken: [String] = []
        for (p, _) in points {
            let r = resolver.resolve(p, measuring: .batch)
            if let c = r.country, c.iso2 != "AQ" {
                broken.append("\(p.latitude), \(p.longitude): \(c.id), more than 23 km from every coast")
            }
            // The nearest land the resolver measures agrees: none within 23 km.
            if let land = resolver.index.nearestLand(to: p, maxKm: 23) {
                broken.append("\(p.latitude), \(p.longitude): land \(land.distanceKm) km away in the land index")
            }
        }
        report(broken, of: points.count, "farther than 23 km from every coast break the rule")
    }
}

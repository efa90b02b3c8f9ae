import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// A batch row at sea searches for land once: the territorial-sea search reaching the
/// near-shore distance answers both questions as two searches of their own breadths would, and
/// the search that only asks whether land is in reach agrees with the one that finds it.
final class CoastSearchTests: XCTestCase {
    /// Positions every 0.01° (about 1 km) across coasts and straits, from land out to open sea:
    /// Brittany's west coast, the Strait of Dover, the Aegean's islands, Bab-el-Mandeb, Tonga.
    private let transects: [(lat: Double, lon: ClosedRange<Double>)] = [
        (48.4, -5.9 ... -4.4), (51.0, 1.0...2.2), (37.1, 24.0...26.5), (12.6, 42.8...43.8),
        (-21.2, -175.9 ... -174.6),
    ]

    private var positions: [Coordinate] {
        transects.flatMap { t in
            stride(from: t.lon.lowerBound, through: t.lon.upperBound, by: 0.01).map { Coordinate(latitude: t.lat, longitude: $0) }
        }
    }

    func testOneSearchToTheNearShoreDistanceAnswersTheTerritorialSeaAsItsOwnSearch() throws {
        let resolver = try TestData.resolver()
        var held = 0, beyond = 0, offshore = 0
        for p in positions {
            let region = resolver.areas.region(at: p)
            let own = resolver.holder(of: p, in: region)
            var searched: CoastSearch?
            let shared = resolver.holder(of: p, in: region, reachKm: resolver.nearShoreKm, searched: &searched)
            XCTAssertEqual(shared?.country, own?.country, "\(p)")
            XCTAssertEqual(shared?.seaKm, own?.seaKm, "\(p)")
            guard let searched else { continue }
            XCTAssertEqual(searched.reachKm, resolver.nearShoreKm)
            let nearShore = resolver.index.nearestLand(to: p, maxKm: resolver.nearShoreKm)
            XCTAssertEqual(searched.land?.countryIndex, nearShore?.countryIndex, "\(p)")
            XCTAssertEqual(searched.land?.distanceKm, nearShore?.distanceKm, "\(p)")
            if own != nil { held += 1 } else if nearShore != nil { offshore += 1 } else { beyond += 1 }
        }
        // Each case met: in the territorial sea, between it and the near-shore distance, beyond.
        XCTAssertGreaterThan(held, 50)
        XCTAssertGreaterThan(offshore, 10)
        XCTAssertGreaterThan(beyond, 10)
    }

    func testAskingWhetherLandIsInReachAgreesWithFindingIt() throws {
        let index = try TestData.resolver().index
        var near = 0, far = 0
        for p in positions {
            let found = index.nearestLand(to: p, maxKm: CountryResolver.territorialSeaKm) != nil
            XCTAssertEqual(index.hasLand(within: CountryResolver.territorialSeaKm, of: p), found, "\(p)")
            if found { near += 1 } else { far += 1 }
        }
        XCTAssertGreaterThan(near, 100)
        XCTAssertGreaterThan(far, 10)
    }

    func testBatchRowsInTheTerritorialSeaKeepTheirCountryAndBorderDistance() throws {
        let plain = try TestData.resolver()
        let batch = try CountryResolver.load(from: TestData.directory, options: .batchWithBorderDistance)
        for p in positions {
            let expected = plain.resolve(p, measuring: .batchWithBorderDistance)
            XCTAssertEqual(batch.resolve(p), expected, "\(p)")
            XCTAssertEqual(plain.resolve(p, measuring: .batch).country, expected.country, "\(p)")
        }
    }
}

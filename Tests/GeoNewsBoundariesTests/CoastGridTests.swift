import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The coast grid only ever skips a search whose answer it knows: where it says no land is
/// within the near-shore distance the search finds none, and where it says land is certainly
/// near the search finds some within 22.1 km, inside the territorial sea. And it skips many.
final class CoastGridTests: XCTestCase {
    /// Seeded positions uniform over the sphere, kept where the root grid's 1° flag says land
    /// may be near (the positions the grid is for), and transects straight out from coasts.
    private func coastalPositions(_ index: CountryIndex, count: Int) -> [Coordinate] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var positions: [Coordinate] = []
        while positions.count < count {
            let p = Coordinate(latitude: asin(2 * next() - 1) * 180 / .pi, longitude: 360 * next() - 180)
            if index.countryIndex(at: p) == nil, index.mayBeNearShore(longitude: p.longitude, latitude: p.latitude) {
                positions.append(p)
            }
        }
        // West from Brittany, south from Tonga's islands, east across the antimeridian by Fiji.
        for k in 0..<200 {
            let step = Double(k) * 0.004
            positions.append(Coordinate(latitude: 48.4, longitude: -4.6 - step))
            positions.append(Coordinate(latitude: -21.1 - step, longitude: -175.2))
            positions.append(Coordinate(latitude: -16.8, longitude: 179.6 + step > 180 ? 179.6 + step - 360 : 179.6 + step))
        }
        return positions
    }

    func testTheGridSkipsOnlySearchesWhoseAnswerItKnows() throws {
        let resolver = try TestData.resolver()
        let index = resolver.index
        let grid = CoastGrid(index)
        var far = 0, near = 0, farByTheSearch = 0, within15 = 0, within15Settled = 0
        for p in coastalPositions(index, count: 20_000) {
            let land = index.nearestLand(to: p, maxKm: index.nearShoreKm)
            if land == nil { farByTheSearch += 1 }
            if let land, land.distanceKm <= 15 {
                within15 += 1
                if grid.certainlyNearLand(p) { within15Settled += 1 }
            }
            if !grid.mayBeNearShore(p) {
                far += 1
                XCTAssertNil(land, "\(p): the grid says no land within \(index.nearShoreKm) km")
            }
            if grid.certainlyNearLand(p) {
                near += 1
                let within = index.nearestLand(to: p, maxKm: CoastGrid.certainKm)
                XCTAssertNotNil(within, "\(p): the grid says land lies within \(CoastGrid.certainKm) km")
            }
        }
        // The grid settles most positions that the 1° flag left to the search: measured from
        // the position itself, all but a band narrower than a cell.
        XCTAssertGreaterThan(Double(far), 0.9 * Double(farByTheSearch), "\(far) of \(farByTheSearch) far positions settled")
        XCTAssertGreaterThan(near, 1_000)
        // Measured from the position itself, the land cells settle the near positions: every
        // one within 15 km of land but where the land lies more than 2.2 km from every cell
        // of land whose centre is near (the coast's vertices far apart).
        XCTAssertGreaterThan(Double(within15Settled), 0.95 * Double(within15), "\(within15Settled) of \(within15) within 15 km settled")
    }

    func testOffTheGridItKnowsNothing() throws {
        let grid = CoastGrid(try TestData.resolver().index)
        for p in [
            Coordinate(latitude: .nan, longitude: 0), Coordinate(latitude: 0, longitude: .nan),
            Coordinate(latitude: 0, longitude: 180), Coordinate(latitude: 90, longitude: 0),
        ] {
            XCTAssertTrue(grid.mayBeNearShore(p), "\(p)")
            XCTAssertFalse(grid.certainlyNearLand(p), "\(p)")
        }
        // Within 80° of the equator an open ocean is far from land; nearer a pole, never.
        XCTAssertFalse(grid.mayBeNearShore(Coordinate(latitude: -40, longitude: -120)))
        XCTAssertTrue(grid.mayBeNearShore(Coordinate(latitude: 85, longitude: -160)))
        XCTAssertTrue(grid.certainlyNearLand(Coordinate(latitude: 48.8566, longitude: 2.3522)))
    }

    func testTheGridBuiltOnItsOwnThreadIsTheSame() throws {
        let index = try TestData.resolver().index
        let built = CoastGridBuild(index).waitForGrid()
        let here = CoastGrid(index)
        for p in coastalPositions(index, count: 2_000) {
            XCTAssertEqual(built.mayBeNearShore(p), here.mayBeNearShore(p), "\(p)")
            XCTAssertEqual(built.certainlyNearLand(p), here.certainlyNearLand(p), "\(p)")
        }
    }
}

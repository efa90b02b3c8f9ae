import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

final class ClusterQueryTests: XCTestCase {
    let seam = [
        Coordinate(latitude: 0, longitude: 179.5), Coordinate(latitude: 0, longitude: -179.5),
        Coordinate(latitude: 0, longitude: 0),
    ]

    func testBoxAcrossTheAntimeridianFindsBothSides() throws {
        let index = try ClusterIndex(points: seam)
        let box = ClusterIndex.Bounds(west: 179, south: -10, east: -179, north: 10)
        XCTAssertEqual(Set(try index.clusters(in: box, zoom: 17).map(\.kind)), [.point(index: 0), .point(index: 1)])
        // 360° or wider is the whole world, whatever the numbers.
        let wide = ClusterIndex.Bounds(west: -200, south: -90, east: 200, north: 90)
        XCTAssertEqual(try index.clusters(in: wide, zoom: 17).count, 3)
        // Latitudes beyond the poles are clamped, not refused.
        let tall = ClusterIndex.Bounds(west: -1, south: -100, east: 1, north: 100)
        XCTAssertEqual(try index.clusters(in: tall, zoom: 17).map(\.kind), [.point(index: 2)])
    }

    func testWrappingJoinsPointsAcrossTheAntimeridian() throws {
        // 0.02° apart across the seam: 0.0000556 of the world, within r up to zoom 10
        // (r = 0.0000763) but not 11 (r = 0.0000381).
        let points = [Coordinate(latitude: 0, longitude: 179.99), Coordinate(latitude: 0, longitude: -179.99)]
        let apart = try ClusterIndex(points: points)
        XCTAssertEqual(try apart.clusters(in: .world, zoom: 0).count, 2)
        let joined = try ClusterIndex(points: points, options: ClusterOptions(wrapsAntimeridian: true))
        let z10 = try joined.clusters(in: .world, zoom: 10)
        XCTAssertEqual(z10.map(\.pointCount), [2])
        XCTAssertEqual(abs(z10[0].coordinate.longitude), 180, accuracy: 1e-9)
        XCTAssertEqual(try joined.clusters(in: .world, zoom: 11).count, 2)
    }

    func testFractionalZoomReadsTheLevelBelow() throws {
        let index = try ClusterIndex(points: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1)])
        XCTAssertEqual(try index.clusters(in: .world, zoom: 4.99).count, 1)
        XCTAssertEqual(try index.clusters(in: .world, zoom: 5).count, 2)
        XCTAssertEqual(try index.level(forZoom: -3), 0)
        XCTAssertEqual(try index.level(forZoom: 100), 17)
        XCTAssertEqual(try index.level(forZoom: .infinity), 17)
        XCTAssertThrowsError(try index.clusters(in: .world, zoom: .nan))
    }

    func testTilePlacesPointsInTilePixelsAndWrapsItsBuffer() throws {
        let index = try ClusterIndex(points: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 170)])
        let world = try index.tile(z: 0, x: 0, y: 0)
        XCTAssertTrue(world.contains(TileFeature(kind: .point(index: 0), pointCount: 1, x: 256, y: 256)))
        // Longitude 170° is x = 0.97222; in tile 1/0/1 seen through the western buffer it sits
        // at 512 · (0.97222 · 2 − 2) = −28.4 pixels, rounded to −28; latitude 0 is its top edge.
        let west = try index.tile(z: 1, x: 0, y: 1)
        XCTAssertTrue(west.contains(TileFeature(kind: .point(index: 1), pointCount: 1, x: -28, y: 0)), "\(west)")
        XCTAssertThrowsError(try index.tile(z: 1, x: 2, y: 0))
        XCTAssertEqual(ClusterIndex.roundHalfUp(-2.5), -2)
        XCTAssertEqual(ClusterIndex.roundHalfUp(2.5), 3)
    }

    func testViewportBoundsAtZoomZeroCoverTheWidthOfTheViewport() {
        // 512 points at zoom 0 are the whole world; a 256-point-wide view is half of it.
        let b = Viewport(center: Coordinate(latitude: 0, longitude: 0), width: 256, height: 256).bounds(atZoom: 0)
        XCTAssertEqual(b.west, -90, accuracy: 1e-12)
        XCTAssertEqual(b.east, 90, accuracy: 1e-12)
        XCTAssertEqual(b.north, -b.south, accuracy: 1e-12)
        XCTAssertEqual(b.north, 66.51326044311186, accuracy: 1e-9)
    }
}

import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// The protobuf pieces of the vector tile writer, against the values the Mapbox Vector Tile
/// 2.1 spec and the protobuf encoding guide give. The whole tile is decoded by an independent
/// decoder in Tests/API/check_tiles.py.
final class VectorTileTests: XCTestCase {
    func testZigzagAndCommandIntegersAreTheSpecs() {
        XCTAssertEqual([0, -1, 1, -2, 2, 2047, -2048].map { VectorTileLayer.zigzag($0) }, [0, 1, 2, 3, 4, 4094, 4095])
        XCTAssertEqual(VectorTileLayer.command(id: 1, count: 1), 9)  // MoveTo(1)
        XCTAssertEqual(VectorTileLayer.command(id: 2, count: 3), 26)  // LineTo(3)
        XCTAssertEqual(VectorTileLayer.command(id: 7, count: 1), 15)  // ClosePath
    }

    func testVarintsAreLittleEndianGroupsOfSeven() {
        var writer = ProtobufWriter()
        writer.varint(1)
        writer.varint(300)
        writer.varint(UInt64(1) << 53)
        XCTAssertEqual(writer.bytes, [0x01, 0xAC, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10])
    }

    func testOnePointLayerIsTheExpectedBytes() {
        var layer = VectorTileLayer(name: "c", extent: 4096)
        layer.addPoint(x: 25, y: 17, id: 5, properties: [("a", .unsigned(2)), ("b", .bool(true)), ("k", .unsigned(2))])
        let feature: [UInt8] = [0x08, 5, 0x12, 6, 0, 0, 1, 1, 2, 0, 0x18, 1, 0x22, 3, 9, 50, 34]
        let expected: [UInt8] =
            [0x78, 2, 0x0A, 1, UInt8(ascii: "c"), 0x12, UInt8(feature.count)] + feature
            + [0x1A, 1, UInt8(ascii: "a"), 0x1A, 1, UInt8(ascii: "b"), 0x1A, 1, UInt8(ascii: "k")]
            + [0x22, 2, 0x28, 2, 0x22, 2, 0x38, 1] + [0x28, 0x80, 0x20]
        XCTAssertEqual(layer.bytes, expected)
        XCTAssertEqual(VectorTileLayer.tile([layer]), [0x1A, UInt8(expected.count)] + expected)
        XCTAssertEqual(VectorTileLayer.tile([VectorTileLayer(name: "empty", extent: 4096)]), [])
    }

    /// The running size the tile limit is checked against is the encoded size, to the byte; a
    /// point past the budget leaves the layer as it was.
    func testTileBytesIsTheEncodedSizeAndAPointPastTheBudgetIsNotAdded() {
        var layer = VectorTileLayer(name: "clusters", extent: 4096)
        for i in 0..<300 {
            layer.addPoint(
                x: i * 13 - 200, y: 4000 - i * 7, id: i % 2 == 0 ? UInt64(i) << 40 : nil,
                properties: [("id", .string(String(repeating: "x", count: i))), ("n", .unsigned(UInt64(i)))])
            XCTAssertEqual(layer.tileBytes, VectorTileLayer.tile([layer]).count, "after \(i + 1) points")
        }
        let before = VectorTileLayer.tile([layer])
        XCTAssertFalse(layer.addPoint(x: 1, y: 1, id: nil, properties: [("name", .string("too long"))], within: before.count + 5))
        XCTAssertEqual(VectorTileLayer.tile([layer]), before)
        XCTAssertTrue(layer.addPoint(x: 1, y: 1, id: nil, properties: [("n", .unsigned(3))], within: before.count + 20))
        XCTAssertEqual(layer.tileBytes, VectorTileLayer.tile([layer]).count)
    }

    func testClusterTileCarriesTheGeoJSONProperties() throws {
        let index = try ClusterIndex(points: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0.01, longitude: 0.01)])
        let bytes = try index.vectorTile(z: 0, x: 0, y: 0, ids: ["a", "b"], names: [nil, nil])
        let text = String(decoding: bytes, as: UTF8.self)
        for key in ["clusters", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom", "members", #"["a","b"]"#] {
            XCTAssertTrue(text.contains(key), key)
        }
        XCTAssertThrowsError(try index.vectorTile(z: 1, x: 2, y: 0, ids: ["a", "b"], names: [nil, nil]))
    }
}

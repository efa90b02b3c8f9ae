import GeoNewsBenchmarking
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// An index read back from its archive answers every query exactly as the index it was
/// written from: clusters at every zoom, tiles, children, leaves, expansion zooms, GeoJSON
/// and vector tiles, over random point sets and option sets.
final class ClusterArchiveTests: XCTestCase {
    let optionSets = [
        ClusterOptions(),
        ClusterOptions(wrapsAntimeridian: true),
        ClusterOptions(minZoom: 2, maxZoom: 12, minPoints: 4, radius: 60, extent: 256),
    ]

    func testMappedIndexAnswersExactlyAsTheHeapIndex() throws {
        var random = TestRandom.generator(for: "ClusterArchiveTests.\(#function)")
        for seed: UInt64 in [11, 12, 13, 14] {
            let count = [1, 37, 900, 2000][Int(seed % 4)]
            for clumped in [true, false] {
                let points = ReferenceClustering.samplePoints(count: count, seed: seed, clumped: clumped)
                for options in optionSets {
                    let heap = try ClusterIndex(points: points, options: options)
                    let labels = ArchiveBytes.labels(count)
                    let (mapped, table) = try ArchiveBytes.read(ArchiveBytes.archive(heap, labels))
                    try mapped.checkInvariants()
                    try assertSameAnswers(heap, labels, mapped, table, random: &random, "seed \(seed), \(count) points, \(options)")
                }
            }
        }
    }

    func testEmptyIndexRoundTrips() throws {
        let heap = try ClusterIndex(points: [])
        let (mapped, _) = try ArchiveBytes.read(ArchiveBytes.archive(heap, ArchiveBytes.labels(0)))
        XCTAssertEqual(try mapped.clusters(in: .world, zoom: 3), [])
        XCTAssertEqual(mapped.points.count, 0)
    }

    func testReadingMakesViewsNotCopies() throws {
        let heap = try ClusterIndex(points: ReferenceClustering.samplePoints(count: 500, seed: 3))
        let box = ArchiveBytes(try ArchiveBytes.archive(heap, ArchiveBytes.labels(500)))
        let (mapped, _) = try ClusterArchive.read(box.view, owner: box, verify: true)
        let range = UnsafeRawPointer(box.bytes.baseAddress!)..<UnsafeRawPointer(box.bytes.baseAddress! + box.count)
        for table in [mapped.nodeX, mapped.nodeY, mapped.clusterLatitude] {
            table.withUnsafeBufferPointer { XCTAssertTrue(range.contains(UnsafeRawPointer($0.baseAddress!))) }
        }
        mapped.levelNodes[0].withUnsafeBufferPointer { XCTAssertTrue(range.contains(UnsafeRawPointer($0.baseAddress!))) }
    }

    private func assertSameAnswers(
        _ heap: ClusterIndex, _ labels: PointLabelArrays, _ mapped: ClusterIndex, _ table: PointLabelTable,
        random: inout SplitMix64, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(Array(mapped.points), Array(heap.points), what, file: file, line: line)
        for p in 0..<labels.ids.count {
            XCTAssertEqual(table.id(ofPoint: p), labels.ids[p], what, file: file, line: line)
            XCTAssertEqual(table.name(ofPoint: p), labels.names[p], what, file: file, line: line)
        }
        var boxes: [BoundingBox] = [.world, BoundingBox(west: 170, south: -20, east: -170, north: 20)]
        for _ in 0..<4 {
            let west = Double.random(in: -180...170, using: &random), south = Double.random(in: -85...70, using: &random)
            boxes.append(
                BoundingBox(
                    west: west, south: south, east: west + Double.random(in: 0.1...60, using: &random),
                    north: south + Double.random(in: 0.1...30, using: &random)))
        }
        let o = heap.options
        for zoom in o.minZoom...(o.maxZoom + 1) {
            for box in boxes {
                let expected = try heap.clusters(in: box, zoom: Double(zoom))
                XCTAssertEqual(try mapped.clusters(in: box, zoom: Double(zoom)), expected, "\(what), zoom \(zoom)", file: file, line: line)
                XCTAssertEqual(
                    try mapped.featureCollection(expected, labels: table, abbreviatedCounts: true),
                    try heap.featureCollection(expected, ids: labels.ids, names: labels.names, abbreviatedCounts: true),
                    what, file: file, line: line)
            }
            let side = 1 << min(zoom, 20)
            for (x, y) in [
                (0, 0), (side - 1, side / 2), (Int.random(in: 0..<side, using: &random), Int.random(in: 0..<side, using: &random)),
            ] {
                XCTAssertEqual(
                    try mapped.tile(z: min(zoom, 20), x: x, y: y), try heap.tile(z: min(zoom, 20), x: x, y: y), what, file: file, line: line
                )
                XCTAssertEqual(
                    try mapped.vectorTile(z: min(zoom, 20), x: x, y: y, labels: table),
                    try heap.vectorTile(z: min(zoom, 20), x: x, y: y, ids: labels.ids, names: labels.names), what, file: file, line: line)
            }
        }
        for c in stride(from: 0, to: heap.clusterCount, by: max(1, heap.clusterCount / 200)) {
            let id = ClusterID(ordinal: c, zoom: Int(heap.clusterZoom[c]))
            XCTAssertEqual(try mapped.children(of: id), try heap.children(of: id), what, file: file, line: line)
            XCTAssertEqual(try mapped.leaves(of: id, limit: .max), try heap.leaves(of: id, limit: .max), what, file: file, line: line)
            XCTAssertEqual(
                try mapped.leaves(of: id, limit: 3, offset: 2), try heap.leaves(of: id, limit: 3, offset: 2), what, file: file, line: line)
            XCTAssertEqual(try mapped.expansionZoom(of: id), try heap.expansionZoom(of: id), what, file: file, line: line)
        }
    }
}

import GeoNewsGeodesy
import XCTest

@testable import GeoNewsClustering

/// Each check of ``ClusterIndex/checkInvariants()`` fails on an index damaged to break its
/// rule alone, and names that rule: a check that cannot fail would prove nothing.
final class ClusterInvariantFailureTests: XCTestCase {
    var index: ClusterIndex!
    var n: Int { index.points.count }

    override func setUpWithError() throws {
        index = try ClusterIndex(points: ReferenceClustering.samplePoints(count: 400, seed: 5))
        try index.checkInvariants()
    }

    /// The first cluster formed at the highest zoom that has two or more children, the
    /// second a point.
    func clusterWithPointMember() throws -> Int {
        let index = try XCTUnwrap(self.index)
        return try XCTUnwrap(
            (0..<index.clusterCount).first { (c: Int) -> Bool in
                let first = Int(index.childStart[c])
                return Int(index.childNodes[first + 1]) < index.points.count
            })
    }

    func assertBreaks(
        _ rule: BrokenInvariant.Rule, saying words: String, _ damage: (inout ClusterIndex) throws -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var damaged = try XCTUnwrap(index)
        try damage(&damaged)
        do {
            try damaged.checkInvariants()
            XCTFail("no rule broken, expected \(rule)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.rule, rule, "\(error)", file: file, line: line)
            XCTAssertTrue(error.detail.contains(words), "\(error)", file: file, line: line)
        }
    }

    func testTableSizes() throws {
        try assertBreaks(.tableSizes, saying: "nodeY has") { $0.nodeY.removeLast() }
        try assertBreaks(.tableSizes, saying: "childStart runs") { $0.childStart[0] = 1 }
    }

    func testChildRanges() throws {
        try assertBreaks(.childRanges, saying: "has children") { $0.childStart[2] = $0.childStart[1] - 1 }
        try assertBreaks(.childRanges, saying: "not made before it") { i in
            i.childNodes[Int(i.childStart[3])] = UInt32(i.points.count + 3)
        }
    }

    func testOneParent() throws {
        try assertBreaks(.oneParent, saying: "is a child of clusters 0 and 1") { i in
            i.childNodes[Int(i.childStart[1])] = i.childNodes[0]
        }
    }

    func testCounts() throws {
        try assertBreaks(.counts, saying: "point node 7 counts 2") { $0.nodeCount[7] = 2 }
        try assertBreaks(.counts, saying: "cluster 4 counts") { i in i.nodeCount[i.points.count + 4] += 1 }
    }

    func testClusterSizes() throws {
        // Cluster 0 keeps only its seed, and counts only it: the counts add up, the size does not.
        try assertBreaks(.clusterSizes, saying: "cluster 0 has 1 children") { i in
            let seedChild = Int(i.childNodes[0])
            i.childStart[1] = 1
            i.nodeCount[i.points.count] = i.nodeCount[seedChild]
        }
    }

    func testSeeds() throws {
        try assertBreaks(.seeds, saying: "out of range or repeated") { $0.nodeSeed[1] = $0.nodeSeed[0] }
        try assertBreaks(.seeds, saying: "cluster 2 has seed") { i in
            let node = i.points.count + 2
            i.nodeSeed[node] = (i.nodeSeed[node] + 1) % UInt32(i.points.count)
        }
    }

    func testRadius() throws {
        let c = try clusterWithPointMember()
        try assertBreaks(.radius, saying: "cluster \(c) at zoom") { i in
            let member = Int(i.childNodes[Int(i.childStart[c]) + 1])
            i.nodeX[member] = i.nodeX[member] < 0.5 ? i.nodeX[member] + 0.25 : i.nodeX[member] - 0.25
        }
    }

    func testCentres() throws {
        try assertBreaks(.centres, saying: "cluster 5 is at") { i in i.nodeY[i.points.count + 5] += 1e-12 }
    }

    func testLatitudes() throws {
        try assertBreaks(.latitudes, saying: "cluster 6 has latitude") { $0.clusterLatitude[6] += 1e-9 }
    }

    func testIDs() throws {
        // Cluster 0 formed at the highest zoom; claiming the lowest puts it out of order.
        XCTAssertGreaterThan(index.clusterZoom[1], 0)
        try assertBreaks(.ids, saying: "cluster 1 formed at zoom") { $0.clusterZoom[0] = 0 }
    }

    func testGridCells() throws {
        try assertBreaks(.gridCells, saying: "level 1 has cells") { $0.levelGrids[1] = CellGrid(exponent: 20) }
    }

    func testLevelOrder() throws {
        try assertBreaks(.levelOrder, saying: "level 17 has key") { i in i.levelNodes[17].reverse() }
    }

    func testLevelPositions() throws {
        let l = try XCTUnwrap(index.levelPositions.firstIndex { !$0.isEmpty })
        try assertBreaks(.levelPositions, saying: "level \(l) stores positions") { $0.levelPositions[l][0] += 1e-9 }
    }

    func testLevelSteps() throws {
        try assertBreaks(.levelSteps, saying: "past the table") { i in
            i.levelNodes[0][i.levelNodes[0].count - 1] = UInt32(i.nodeX.count)
        }
        try assertBreaks(.levelSteps, saying: "the top level holds 399 items") { $0.levelNodes[17].removeLast() }
        // Level 16's stored positions, if it keeps them, follow its nodes.
        try assertBreaks(.levelSteps, saying: "level 16 holds") { i in
            i.levelNodes[16].removeLast()
            if !i.levelPositions[16].isEmpty { i.levelPositions[16].removeLast(2) }
        }
        try assertBreaks(.levelSteps, saying: "or twice") { i in
            i.levelNodes[16][1] = i.levelNodes[16][0]
            if !i.levelPositions[16].isEmpty { i.levelPositions[16][2...3] = i.levelPositions[16][0...1] }
        }
    }

    func testEveryRuleHasAFailureTest() {
        // One test above per rule; a rule added without one fails here.
        XCTAssertEqual(BrokenInvariant.Rule.allCases.count, 14)
    }
}

#if DEBUG
/// The rules a built ``ClusterIndex`` keeps, checked whole by ``ClusterIndex/checkInvariants()``
/// in debug builds (the tests call it on random and adversarial inputs). Each check is cheap
/// to state and linear or near it, but none is cheap enough for a release build.
///
/// A broken rule is reported rather than trapped on, so that a test can damage an index and
/// see which rule it broke.
struct BrokenInvariant: Error, CustomStringConvertible {
    enum Rule: String, CaseIterable {
        /// The node, cluster, child and level tables have the lengths the counts imply.
        case tableSizes
        /// Each cluster's children are a range of the child table, made before the cluster.
        case childRanges
        /// A node belongs to at most one cluster.
        case oneParent
        /// A point counts 1; a cluster counts the sum of its children.
        case counts
        /// A cluster has at least two children and at least `minPoints` points.
        case clusterSizes
        /// Point seeds are the input indices, each once; a cluster's seed is its first child's.
        case seeds
        /// Every child after the first (the seed) lies within the radius of its cluster's zoom.
        case radius
        /// A cluster sits at the count-weighted mean of its children, summed in child order.
        case centres
        /// A cluster's stored latitude is the inverse Mercator of its y.
        case latitudes
        /// Ids decode to their ordinal and zoom; zooms are in range and fall as ordinals rise.
        case ids
        /// A level's cells are at least the radius wide at the zoom that clusters it.
        case gridCells
        /// A level's items are sorted by cell key on its grid.
        case levelOrder
        /// A level's stored positions are its nodes' positions.
        case levelPositions
        /// The top level is every point; each level is the one above with the clusters formed
        /// at its zoom in place of their children, so every point appears once per zoom.
        case levelSteps
    }

    let rule: Rule
    let detail: String

    var description: String { "\(rule.rawValue): \(detail)" }
}

extension ClusterIndex {
    /// Checks every ``BrokenInvariant/Rule`` in the order listed there, and throws the first
    /// that does not hold. Debug builds only.
    func checkInvariants() throws(BrokenInvariant) {
        try checkTableSizes()
        try checkChildren()
        try checkClusters()
        try checkIDs()
        for level in options.minZoom...(options.maxZoom + 1) { try checkLevelLayout(level) }
        try checkLevelSteps()
    }

    private func broken(_ rule: BrokenInvariant.Rule, _ detail: String) -> BrokenInvariant {
        BrokenInvariant(rule: rule, detail: detail)
    }

    private func checkTableSizes() throws(BrokenInvariant) {
        let n = points.count, c = clusterZoom.count, nodes = n + c
        let levels = options.maxZoom + 2 - options.minZoom
        let sizes = [
            ("nodeX", nodeX.count, nodes), ("nodeY", nodeY.count, nodes), ("nodeCount", nodeCount.count, nodes),
            ("nodeSeed", nodeSeed.count, nodes), ("clusterLatitude", clusterLatitude.count, c),
            ("childStart", childStart.count, c + 1), ("levelNodes", levelNodes.count, levels),
            ("levelPositions", levelPositions.count, levels), ("levelGrids", levelGrids.count, levels),
        ]
        for (name, actual, expected) in sizes where actual != expected {
            throw broken(.tableSizes, "\(name) has \(actual) entries, not \(expected)")
        }
        guard childStart[0] == 0, Int(childStart[c]) == childNodes.count else {
            throw broken(.tableSizes, "childStart runs \(childStart[0])…\(childStart[c]), not 0…\(childNodes.count)")
        }
    }

    private func checkChildren() throws(BrokenInvariant) {
        let n = points.count
        var parent = ContiguousArray<Int>(repeating: -1, count: nodeX.count)
        for c in 0..<clusterZoom.count {
            let first = Int(childStart[c]), end = Int(childStart[c + 1])
            guard first <= end else { throw broken(.childRanges, "cluster \(c) has children \(first)..<\(end)") }
            for child in childNodes[first..<end] {
                guard Int(child) < n + c else {
                    throw broken(.childRanges, "cluster \(c) (node \(n + c)) has child node \(child), not made before it")
                }
                guard parent[Int(child)] < 0 else {
                    throw broken(.oneParent, "node \(child) is a child of clusters \(parent[Int(child)]) and \(c)")
                }
                parent[Int(child)] = c
            }
        }
    }

    private func checkClusters() throws(BrokenInvariant) {
        let n = points.count
        var seen = ContiguousArray<Bool>(repeating: false, count: n)
        for p in 0..<n {
            guard nodeCount[p] == 1 else { throw broken(.counts, "point node \(p) counts \(nodeCount[p])") }
            let seed = Int(nodeSeed[p])
            guard seed < n, !seen[seed] else { throw broken(.seeds, "point node \(p) has seed \(seed), out of range or repeated") }
            seen[seed] = true
        }
        for c in 0..<clusterZoom.count {
            let node = n + c, first = Int(childStart[c]), end = Int(childStart[c + 1])
            let children = childNodes[first..<end].map { Int($0) }
            let total = children.reduce(0) { $0 + Int(nodeCount[$1]) }
            guard Int(nodeCount[node]) == total else {
                throw broken(.counts, "cluster \(c) counts \(nodeCount[node]), its children \(total)")
            }
            guard children.count >= 2, total >= options.minPoints else {
                throw broken(.clusterSizes, "cluster \(c) has \(children.count) children and \(total) points")
            }
            guard nodeSeed[node] == nodeSeed[children[0]] else {
                throw broken(.seeds, "cluster \(c) has seed \(nodeSeed[node]), its first child \(nodeSeed[children[0]])")
            }
            let zoom = Int(clusterZoom[c])
            let r = options.mercatorRadius(atZoom: zoom)
            let seedX = nodeX[children[0]], seedY = nodeY[children[0]]
            var centre = WeightedCentre(x: seedX, y: seedY, count: nodeCount[children[0]], wraps: options.wrapsAntimeridian)
            for child in children.dropFirst() {
                let d2 = ClusterBuilder.squaredDistance(seedX, seedY, nodeX[child], nodeY[child], wraps: options.wrapsAntimeridian)
                guard d2 <= r * r else {
                    throw broken(
                        .radius, "cluster \(c) at zoom \(zoom) has child node \(child) \(d2.squareRoot()) from its seed, beyond \(r)")
                }
                centre.add(x: nodeX[child], y: nodeY[child], count: nodeCount[child])
            }
            let (x, y) = centre.position
            guard x == nodeX[node] && y == nodeY[node] else {
                throw broken(.centres, "cluster \(c) is at \(nodeX[node]), \(nodeY[node]); its children's mean is \(x), \(y)")
            }
            guard clusterLatitude[c] == WebMercator.latitude(y: y) else {
                throw broken(.latitudes, "cluster \(c) has latitude \(clusterLatitude[c]), its y \(y)")
            }
        }
    }

    private func checkIDs() throws(BrokenInvariant) {
        var previous = options.maxZoom
        for c in 0..<clusterZoom.count {
            let zoom = Int(clusterZoom[c])
            let id = ClusterID(ordinal: c, zoom: zoom)
            guard (options.minZoom...previous).contains(zoom), id.ordinal == c, id.zoom == zoom,
                (try? ordinal(of: id)) == c
            else {
                throw broken(.ids, "cluster \(c) formed at zoom \(zoom) after one at \(previous), or its id \(id) does not decode")
            }
            previous = zoom
        }
    }

    private func checkLevelLayout(_ level: Int) throws(BrokenInvariant) {
        let l = level - options.minZoom
        let grid = levelGrids[l], nodes = levelNodes[l]
        // Level L is clustered at zoom L − 1 on its own grid.
        let r = options.mercatorRadius(atZoom: level - 1)
        guard grid.exponent == 0 || pow2(-grid.exponent) >= r else {
            throw broken(.gridCells, "level \(level) has cells \(pow2(-grid.exponent)) wide, under the radius \(r)")
        }
        var previousKey: UInt64 = 0
        for (i, node) in nodes.enumerated() {
            guard Int(node) < nodeX.count else { throw broken(.levelSteps, "level \(level) holds node \(node), past the table") }
            let key = grid.key(x: nodeX[Int(node)], y: nodeY[Int(node)])
            guard key >= previousKey else {
                throw broken(.levelOrder, "level \(level) has key \(key) at \(i) after \(previousKey)")
            }
            previousKey = key
        }
        let xy = levelPositions[l]
        guard xy.isEmpty || xy.elementsEqual(nodes.lazy.flatMap { [self.nodeX[Int($0)], self.nodeY[Int($0)]] }) else {
            throw broken(.levelPositions, "level \(level) stores positions other than its nodes'")
        }
    }

    /// Walks the levels down from the points, marking what each must hold: the level above,
    /// less the children of the clusters formed at its zoom, plus those clusters.
    private func checkLevelSteps() throws(BrokenInvariant) {
        let n = points.count
        let top = levelNodes[levelNodes.count - 1]
        guard top.count == n, top.allSatisfy({ Int($0) < n }), Set(top).count == n else {
            throw broken(.levelSteps, "the top level holds \(top.count) items, not the \(n) points once each")
        }
        var expected = ContiguousArray<Bool>(repeating: false, count: nodeX.count)
        for node in top { expected[Int(node)] = true }
        var c = 0
        for level in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            var size = levelNodes[level + 1 - options.minZoom].count
            while c < clusterZoom.count && Int(clusterZoom[c]) == level {
                // A child missing from the level above leaves `size` one too small, which
                // the count below reports.
                for child in childNodes[Int(childStart[c])..<Int(childStart[c + 1])] {
                    expected[Int(child)] = false
                    size -= 1
                }
                expected[n + c] = true
                size += 1
                c += 1
            }
            let nodes = levelNodes[level - options.minZoom]
            guard nodes.count == size else {
                throw broken(.levelSteps, "level \(level) holds \(nodes.count) items, not \(size)")
            }
            var here = ContiguousArray<Bool>(repeating: false, count: nodeX.count)
            for node in nodes {
                guard expected[Int(node)], !here[Int(node)] else {
                    throw broken(.levelSteps, "level \(level) holds node \(node) where it does not belong, or twice")
                }
                here[Int(node)] = true
            }
        }
    }
}
#endif

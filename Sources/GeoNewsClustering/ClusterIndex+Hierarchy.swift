extension ClusterIndex {
    /// The cluster ordinal for `id`, or a typed error when this index has no such cluster.
    func ordinal(of id: ClusterID) throws(ClusterIndexError) -> Int {
        let ordinal = id.ordinal
        guard ordinal < clusterZoom.count, Int(clusterZoom[ordinal]) == id.zoom else {
            throw .unknownCluster(id)
        }
        return ordinal
    }

    /// The items a cluster splits into one zoom level closer: its seed first, then the members
    /// it gathered, as supercluster's `getChildren`.
    ///
    /// - Throws: ``ClusterIndexError/unknownCluster(_:)``.
    public func children(of id: ClusterID) throws(ClusterIndexError) -> [ClusterFeature] {
        let c = try ordinal(of: id)
        return (Int(childStart[c])..<Int(childStart[c + 1])).map { feature(node: Int(childNodes[$0])) }
    }

    /// Indices (into ``points``) of the points in a cluster, depth first through its children,
    /// skipping `offset` of them and returning at most `limit`, as supercluster's `getLeaves`.
    ///
    /// - Parameters:
    ///   - limit: at most this many, 0 or more; pass `Int.max` for all.
    ///   - offset: skip this many first, 0 or more.
    /// - Throws: ``ClusterIndexError/unknownCluster(_:)``, or
    ///   ``ClusterIndexError/invalidQuery(name:value:expected:)`` for a negative limit or offset.
    public func leaves(of id: ClusterID, limit: Int = 10, offset: Int = 0) throws(ClusterIndexError) -> [Int] {
        let c = try ordinal(of: id)
        guard limit >= 0 else { throw .invalidQuery(name: "limit", value: "\(limit)", expected: "0 or more") }
        guard offset >= 0 else { throw .invalidQuery(name: "offset", value: "\(offset)", expected: "0 or more") }
        var result: [Int] = []
        guard limit > 0 else { return result }
        var skipped = 0
        appendLeaves(of: c, into: &result, limit: limit, offset: offset, skipped: &skipped)
        return result
    }

    private func appendLeaves(of cluster: Int, into result: inout [Int], limit: Int, offset: Int, skipped: inout Int) {
        for i in Int(childStart[cluster])..<Int(childStart[cluster + 1]) {
            let node = Int(childNodes[i])
            if node >= points.count {
                let count = Int(nodeCount[node])
                if skipped + count <= offset {
                    skipped += count
                } else {
                    appendLeaves(of: node - points.count, into: &result, limit: limit, offset: offset, skipped: &skipped)
                }
            } else if skipped < offset {
                skipped += 1
            } else {
                result.append(Int(nodeSeed[node]))
            }
            if result.count == limit { return }
        }
    }

    /// The zoom at which a cluster splits into its children: one above the zoom it formed at.
    ///
    /// supercluster walks down single-child chains; a v8 cluster always has two or more
    /// children, so the walk stops after one step and this is the same answer.
    ///
    /// - Throws: ``ClusterIndexError/unknownCluster(_:)``.
    public func expansionZoom(of id: ClusterID) throws(ClusterIndexError) -> Int {
        _ = try ordinal(of: id)
        return id.zoom + 1
    }

    /// Per-cluster values folded from per-point ones, supercluster's `map`/`reduce` done once
    /// after the build: `map` gives a point's value from its index, `reduce` folds a child's
    /// value into the running one. Clusters are visited children first, so each is computed
    /// from its children in one pass over the hierarchy.
    ///
    /// ```swift
    /// let members = index.aggregate({ [codes[$0]] as Set }, { $0.formUnion($1) })
    /// let weight = index.aggregate({ weights[$0] }, +=)
    /// ```
    public func aggregate<Value>(_ map: (Int) -> Value, _ reduce: (inout Value, Value) -> Void) -> ClusterAggregates<Value> {
        var values: [Value] = []
        values.reserveCapacity(clusterCount)
        for c in 0..<clusterCount {
            func value(_ node: Int) -> Value {
                node < points.count ? map(Int(nodeSeed[node])) : values[node - points.count]
            }
            let first = Int(childStart[c]), end = Int(childStart[c + 1])
            var v = value(Int(childNodes[first]))
            for i in first + 1..<end { reduce(&v, value(Int(childNodes[i]))) }
            values.append(v)
        }
        return ClusterAggregates(values: values, zooms: clusterZoom)
    }
}

/// Values folded over each cluster's points by ``ClusterIndex/aggregate(_:_:)``.
public struct ClusterAggregates<Value> {
    let values: [Value]
    let zooms: FlatTable<UInt8>

    /// The value of cluster `id`, or `nil` if it is not a cluster of the index that made this.
    public subscript(id: ClusterID) -> Value? {
        let o = id.ordinal
        guard o < values.count, Int(zooms[o]) == id.zoom else { return nil }
        return values[o]
    }
}

extension ClusterAggregates: Sendable where Value: Sendable {}

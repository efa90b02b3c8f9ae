extension ClusterIndex {
    /// The first stored value that would make a query read outside a table or trap (a node,
    /// seed or child out of range, a child range that runs backwards, a position outside the
    /// unit square), or `nil`. Read from an archive, an index is checked by this before use;
    /// one built here holds by construction (see `checkInvariants()` for the full rules).
    func tableProblem() -> String? {
        let n = points.count, c = clusterCount, nodes = n + c
        // Through buffers: this walks every byte of an archive of millions of points.
        if let p = points.withUnsafeBufferPointer({ $0.firstIndex { !(abs($0.latitude) <= 90 && abs($0.longitude) <= 180) } }) {
            return "point \(p) is at \(points[p]), not a position"
        }
        if let i = nodeSeed.withUnsafeBufferPointer({ $0.firstIndex { Int($0) >= n } }) {
            return "node \(i) has seed \(nodeSeed[i]), past the \(n) points"
        }
        for table in [nodeX, nodeY] {
            if let i = table.withUnsafeBufferPointer({ $0.firstIndex { !(0...1).contains($0) } }) {
                return "node \(i) is at \(nodeX[i]), \(nodeY[i]), outside the unit square"
            }
        }
        guard childStart[0] == 0, Int(childStart[c]) == childNodes.count else {
            return "child starts run \(childStart[0])…\(childStart[c]), not 0…\(childNodes.count)"
        }
        // Rising from 0 to the table's end, so every range below lies inside it.
        for k in 0..<c where childStart[k] > childStart[k + 1] {
            return "cluster \(k) has children \(childStart[k])..<\(childStart[k + 1])"
        }
        for k in 0..<c {
            let zoom = Int(clusterZoom[k])
            guard (options.minZoom...options.maxZoom).contains(zoom) else { return "cluster \(k) formed at zoom \(zoom)" }
            for i in Int(childStart[k])..<Int(childStart[k + 1]) {
                // Only nodes made before a cluster may be its children, so there is no cycle;
                // a child cluster formed at a higher zoom, so a walk down is at most 256 deep.
                let child = Int(childNodes[i])
                guard child < n + k else { return "cluster \(k) has child node \(child), not made before it" }
                guard child < n || Int(clusterZoom[child - n]) > zoom else {
                    return "cluster \(k) at zoom \(zoom) has child cluster \(child - n) formed at zoom \(clusterZoom[child - n])"
                }
            }
        }
        for (l, order) in levelNodes.enumerated() {
            if let node = order.withUnsafeBufferPointer({ $0.first { Int($0) >= nodes } }) {
                return "level \(l + options.minZoom) holds node \(node), past the \(nodes) nodes"
            }
            if let v = levelPositions[l].withUnsafeBufferPointer({ $0.first { !(0...1).contains($0) } }) {
                return "level \(l + options.minZoom) stores a position \(v), outside the unit square"
            }
        }
        return nil
    }
}

extension PointLabelTable {
    /// The first label offset that runs backwards or past its bytes, or `nil`.
    func tableProblem() -> String? {
        for (name, ends, bytes) in [("id", idEnds, idBytes), ("name", nameEnds, nameBytes)] {
            var previous: UInt64 = 0
            for (p, end) in ends.enumerated() {
                guard end >= previous, end <= UInt64(bytes.count) else {
                    return "the \(name) of point \(p) ends at byte \(end), before its start or past the \(bytes.count) bytes"
                }
                previous = end
            }
        }
        return nil
    }
}

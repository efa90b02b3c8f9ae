import GeoNewsGeodesy

extension ClusterIndex {
    /// The clusters and lone points inside `bounds` at `zoom`, as supercluster's `getClusters`.
    ///
    /// - Parameters:
    ///   - bounds: degrees; crossing the antimeridian (`west > east`) queries both sides,
    ///     360° or wider is the whole world, latitudes are clamped.
    ///   - zoom: fractional zooms read level `floor(zoom)` (see ``level(forZoom:)``).
    /// - Throws: ``ClusterIndexError/invalidQuery(name:value:expected:)`` for a NaN zoom or a
    ///   non-finite bound.
    public func clusters(in bounds: Bounds, zoom: Double) throws(ClusterIndexError) -> [ClusterFeature] {
        var features: [ClusterFeature] = []
        let levelCount = try itemCount(atZoom: zoom)
        features.reserveCapacity(bounds.east - bounds.west >= 360 ? levelCount : Swift.min(levelCount, 1 << 12))
        try forEachFeature(in: bounds, zoom: zoom) { features.append($0) }
        return features
    }

    /// Calls `body` with every feature that ``clusters(in:zoom:)`` would return, without
    /// building the array.
    public func forEachFeature(
        in bounds: Bounds, zoom: Double, _ body: (ClusterFeature) -> Void
    ) throws(ClusterIndexError) {
        let level = try level(forZoom: zoom)
        for (name, v) in [("west", bounds.west), ("south", bounds.south), ("east", bounds.east), ("north", bounds.north)]
        where !v.isFinite {
            throw .invalidQuery(name: "bounds \(name)", value: "\(v)", expected: "a finite number of degrees")
        }
        for box in Self.mercatorBoxes(for: bounds) {
            forEachNode(level: level, minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) { node, x, _ in
                body(feature(node: node, x: x))
                return true
            }
        }
    }

    /// Mercator boxes for a degree box, with supercluster's longitude normalisation.
    static func mercatorBoxes(for b: Bounds) -> [(minX: Double, minY: Double, maxX: Double, maxY: Double)] {
        func wrapped(_ lng: Double) -> Double {
            ((lng + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        }
        var minLng = wrapped(b.west)
        var maxLng = b.east == 180 ? 180 : wrapped(b.east)
        let minLat = Swift.max(-90, Swift.min(90, b.south))
        let maxLat = Swift.max(-90, Swift.min(90, b.north))
        let minY = WebMercator.y(latitude: maxLat), maxY = WebMercator.y(latitude: minLat)
        if b.east - b.west >= 360 {
            minLng = -180
            maxLng = 180
        } else if minLng > maxLng {
            return [
                (WebMercator.x(longitude: minLng), minY, 1, maxY),
                (0, minY, WebMercator.x(longitude: maxLng), maxY),
            ]
        }
        return [(WebMercator.x(longitude: minLng), minY, WebMercator.x(longitude: maxLng), maxY)]
    }

    /// Vector-tile features for tile (z, x, y), as supercluster's `getTile`: the tile plus a
    /// buffer of `radius` pixels, wrapping around the antimeridian at the first and last column.
    /// An empty tile gives an empty array.
    ///
    /// - Parameter tileExtent: the tile's width in the features' units; `nil` is
    ///   ``ClusterOptions/extent``, as supercluster. The buffer stays `radius` pixels of
    ///   ``ClusterOptions/extent``, whatever the units.
    /// - Throws: ``ClusterIndexError/invalidQuery(name:value:expected:)`` unless
    ///   0 ≤ z ≤ 62 and 0 ≤ x, y < 2^z.
    public func tile(z: Int, x: Int, y: Int, tileExtent: Double? = nil) throws(ClusterIndexError) -> [TileFeature] {
        guard (0...62).contains(z) else { throw .invalidQuery(name: "tile z", value: "\(z)", expected: "0…62") }
        let side = 1 << z
        guard (0..<side).contains(x), (0..<side).contains(y) else {
            throw .invalidQuery(name: "tile", value: "\(z)/\(x)/\(y)", expected: "x and y in 0..<\(side)")
        }
        let level = try level(forZoom: Double(z))
        let z2 = Double(side), p = options.radius / options.extent, extent = tileExtent ?? options.extent
        let top = (Double(y) - p) / z2, bottom = (Double(y) + 1 + p) / z2
        var features: [TileFeature] = []
        func add(minX: Double, maxX: Double, originX: Double) {
            forEachNode(level: level, minX: minX, minY: top, maxX: maxX, maxY: bottom) { node, nx, ny in
                let f = feature(node: node, x: nx)
                features.append(
                    TileFeature(
                        kind: f.kind, pointCount: f.pointCount,
                        x: Self.roundHalfUp(extent * (nx * z2 - originX)),
                        y: Self.roundHalfUp(extent * (ny * z2 - Double(y)))
                    ))
                return true
            }
        }
        add(minX: (Double(x) - p) / z2, maxX: (Double(x) + 1 + p) / z2, originX: Double(x))
        if x == 0 { add(minX: 1 - p / z2, maxX: 1, originX: z2) }
        if x == side - 1 { add(minX: 0, maxX: p / z2, originX: -1) }
        return features
    }

    /// JavaScript's `Math.round`: halves go towards +∞.
    static func roundHalfUp(_ v: Double) -> Int {
        let f = v.rounded(.down)
        return Int(v - f >= 0.5 ? f + 1 : f)
    }

    /// The public view of node `node`.
    func feature(node: Int) -> ClusterFeature {
        feature(node: node, x: nodeX[node])
    }

    /// The public view of node `node` at mercator `x` (already at hand in a scan).
    func feature(node: Int, x: Double) -> ClusterFeature {
        if node < points.count {
            let index = Int(nodeSeed[node])
            return ClusterFeature(kind: .point(index: index), coordinate: points[index], pointCount: 1)
        }
        let ordinal = node - points.count
        return ClusterFeature(
            kind: .cluster(ClusterID(ordinal: ordinal, zoom: Int(clusterZoom[ordinal]))),
            coordinate: Coordinate(latitude: clusterLatitude[ordinal], longitude: WebMercator.longitude(x: x)),
            pointCount: Int(nodeCount[node])
        )
    }

    /// Visits the nodes of `level` with minX ≤ x ≤ maxX and minY ≤ y ≤ maxY (mercator units),
    /// row by row of its grid, until `visit` (given the node and its x, y) returns false.
    func forEachNode(level: Int, minX: Double, minY: Double, maxX: Double, maxY: Double, _ visit: (Int, Double, Double) -> Bool) {
        guard minX <= maxX, minY <= maxY else { return }
        let l = level - options.minZoom
        let positions = levelPositions[l]
        levelNodes[l].withUnsafeBufferPointer { order in
            if positions.isEmpty {
                nodeX.withUnsafeBufferPointer { xs in
                    nodeY.withUnsafeBufferPointer { ys in
                        scan(order, grid: levelGrids[l], minX, minY, maxX, maxY, visit) { i in
                            let node = Int(order[i])
                            return (xs[node], ys[node])
                        }
                    }
                }
            } else {
                positions.withUnsafeBufferPointer { xy in
                    scan(order, grid: levelGrids[l], minX, minY, maxX, maxY, visit) { i in (xy[2 * i], xy[2 * i + 1]) }
                }
            }
        }
    }

    /// The row walk of ``forEachNode(level:minX:minY:maxX:maxY:_:)`` over a level's nodes in
    /// grid order, reading the i-th one's position through `position`.
    @inline(__always)
    private func scan(
        _ order: UnsafeBufferPointer<UInt32>, grid: CellGrid,
        _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
        _ visit: (Int, Double, Double) -> Bool, position: (Int) -> (Double, Double)
    ) {
        let clamp = { (v: Double) in Swift.min(Swift.max(v, 0), 1) }
        let firstRow = grid.cell(clamp(minY)), lastRow = grid.cell(clamp(maxY))
        let firstColumn = grid.cell(clamp(minX)), lastColumn = grid.cell(clamp(maxX))
        let n = order.count
        @inline(__always) func key(_ i: Int) -> UInt64 {
            let (x, y) = position(i)
            return grid.key(x: x, y: y)
        }
        var i = 0
        var row = firstRow
        while row <= lastRow {
            // Gallop from where the last row ended, then bisect.
            let start = grid.key(row: row, column: firstColumn)
            var step = 1, high = i
            while high < n && key(high) < start { i = high + 1; high += step; step <<= 1 }
            high = Swift.min(high, n)
            while i < high {
                let mid = (i + high) >> 1
                if key(mid) < start { i = mid + 1 } else { high = mid }
            }
            let end = grid.key(row: row, column: lastColumn)
            while i < n {
                let (x, y) = position(i)
                if grid.key(x: x, y: y) > end { break }
                if x >= minX && x <= maxX && y >= minY && y <= maxY && !visit(Int(order[i]), x, y) { return }
                i += 1
            }
            if i >= n { return }
            // Skip empty rows: go straight to the row of the next item.
            row = Swift.max(row + 1, grid.row(of: key(i)))
        }
    }
}

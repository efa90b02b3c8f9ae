import GeoNewsGeodesy

@testable import GeoNewsClustering

/// supercluster v8's `_cluster` written as plainly as possible: brute-force neighbour search
/// over level arrays in visiting order. Slow (n² per zoom) and obviously faithful; the index's
/// grid search and merges must agree with it.
struct ReferenceClustering {
    /// Deterministic points: a uniform scatter plus tight blobs (cities), some on the seam.
    static func samplePoints(count: Int, seed: UInt64, clumped: Bool = true) -> [Coordinate] {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var result: [Coordinate] = []
        let blobs = [(48.85, 2.35), (0.0, 179.99), (35.68, 139.69), (-33.87, 151.21)]
        for i in 0..<count {
            if !clumped && i % 40 == 1 {
                // Close pairs, so that the top zooms have something to cluster.
                let previous = result[i - 1]
                result.append(
                    Coordinate(
                        latitude: previous.latitude + (next() - 0.5) * 1e-4,
                        longitude: max(-180, min(180, previous.longitude + (next() - 0.5) * 1e-4))))
            } else if clumped && i % 3 == 0 {
                let (lat, lon) = blobs[i % blobs.count]
                let spread = i % 2 == 0 ? 0.01 : 2
                result.append(
                    Coordinate(
                        latitude: lat + (next() - 0.5) * spread,
                        longitude: max(-180, min(180, lon + (next() - 0.5) * spread))))
            } else {
                result.append(Coordinate(latitude: next() * 170 - 85, longitude: next() * 360 - 180))
            }
        }
        return result
    }

    struct Item { var x: Double; var y: Double; var count: Int; var visitedZoom = Int.max }

    /// Items per zoom, minZoom…maxZoom, each as (x, y, count) in level order.
    static func levels(_ points: [Coordinate], options o: ClusterOptions) -> [Int: [Item]] {
        var items = points.map { Item(x: WebMercator.x(longitude: $0.longitude), y: WebMercator.y(latitude: $0.latitude), count: 1) }
        var result: [Int: [Item]] = [:]
        for zoom in stride(from: o.maxZoom, through: o.minZoom, by: -1) {
            let r = o.mercatorRadius(atZoom: zoom)
            var next: [Item] = []
            var consumed = [Bool](repeating: false, count: items.count)
            for i in items.indices {
                if consumed[i] { continue }
                // Visited as a neighbour that did not make a cluster: passes through in place.
                if items[i].visitedZoom <= zoom { next.append(items[i]); continue }
                items[i].visitedZoom = zoom
                let p = items[i]
                let neighbours = items.indices.filter { j in
                    guard j != i, items[j].visitedZoom > zoom else { return false }
                    var dx = abs(items[j].x - p.x)
                    if o.wrapsAntimeridian && dx > 0.5 { dx = 1 - dx }
                    let dy = items[j].y - p.y
                    return dx * dx + dy * dy <= r * r
                }
                let total = p.count + neighbours.reduce(0) { $0 + items[$1].count }
                for j in neighbours { items[j].visitedZoom = zoom }
                if total > p.count && total >= o.minPoints {
                    var wx = p.x * Double(p.count), wy = p.y * Double(p.count)
                    for j in neighbours {
                        consumed[j] = true
                        var x = items[j].x
                        if o.wrapsAntimeridian { x = x - p.x > 0.5 ? x - 1 : (p.x - x > 0.5 ? x + 1 : x) }
                        wx += x * Double(items[j].count)
                        wy += items[j].y * Double(items[j].count)
                    }
                    var cx = wx / Double(total)
                    if o.wrapsAntimeridian { cx = cx < 0 ? cx + 1 : (cx >= 1 ? cx - 1 : cx) }
                    next.append(Item(x: cx, y: wy / Double(total), count: total))
                } else {
                    next.append(p)
                }
            }
            // Items that stay unclustered keep their visiting order, as in ClusterIndex.
            items = next.map { Item(x: $0.x, y: $0.y, count: $0.count) }
            result[zoom] = items
        }
        return result
    }
}

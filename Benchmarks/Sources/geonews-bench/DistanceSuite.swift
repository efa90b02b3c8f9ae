import GeoNews
import GeoNewsBenchmarking

/// Distance throughput on random pairs of positions (uniform over the sphere): the great
/// circle (haversine) and the WGS 84 geodesic (Karney's inverse problem) on the same pairs.
enum DistanceSuite {
    static func run(_ ctx: BenchContext) throws {
        let o = ctx.options
        let n = o.points(default: 1_000_000)
        var rng = SplitMix64(seed: o.seed &+ 7)
        var from: [Coordinate] = [], to: [Coordinate] = []
        from.reserveCapacity(n)
        to.reserveCapacity(n)
        for _ in 0..<n {
            from.append(rng.onSphere())
            to.append(rng.onSphere())
        }
        let a = from, b = to
        let geodesic = Geodesic.wgs84
        time(ctx, "distance: GreatCircle.distance(from:to:) (haversine)", key: "distance", a, b) {
            GreatCircle.distance(from: $0, to: $1)
        }
        time(
            ctx, "distance: Geodesic.wgs84.inverse(from:to:) (WGS 84, Karney 2013; distance and azimuths)",
            key: "distance.geodesic", a, b
        ) {
            geodesic.inverse(from: $0, to: $1).distanceMetres
        }
        if let path = ctx.outputPath("pairs.csv") {
            try PointSets.writeRows(path: path, header: "lat1,lon1,lat2,lon2,km,geodesic_m", count: n) { i in
                "\(a[i].latitude),\(a[i].longitude),\(b[i].latitude),\(b[i].longitude),"
                    + "\(GreatCircle.distance(from: a[i], to: b[i])),\(geodesic.inverse(from: a[i], to: b[i]).distanceMetres)"
            }
        }
    }

    /// Times `measure` over every pair on one thread and on `--threads`, median of `--runs`
    /// passes, and records `<key>.threads<N>.pairs_per_s`.
    @inline(__always)
    private static func time(
        _ ctx: BenchContext, _ title: String, key: String,
        _ a: [Coordinate], _ b: [Coordinate],
        _ measure: @escaping @Sendable (Coordinate, Coordinate) -> Double
    ) {
        let o = ctx.options
        let n = a.count
        var table = Table("\(title), median of \(o.runs) passes", columns: ["pairs", "threads", "M pairs/s", "ns/pair"])
        // The workers read the pairs through raw pointers: indexing a captured array from both
        // threads would retain and release its one buffer on every call.
        let from = SharedSlots(UnsafeMutablePointer<Coordinate>.allocate(capacity: n))
        let to = SharedSlots(UnsafeMutablePointer<Coordinate>.allocate(capacity: n))
        from.base.initialize(from: a, count: n)
        to.base.initialize(from: b, count: n)
        defer { from.base.deallocate(); to.base.deallocate() }
        for threads in Set([1, o.threads]).sorted() {
            let sums = SharedSlots(UnsafeMutablePointer<Double>.allocate(capacity: threads))
            sums.base.initialize(repeating: 0, count: threads)
            let t = Measure.median(runs: o.runs) {
                onThreads(threads) { w in
                    var sum = 0.0
                    for i in share(of: n, worker: w, workers: threads) { sum += measure(from.base[i], to.base[i]) }
                    sums[w] += sum
                }
            }
            consume(sums[0])
            sums.base.deallocate()
            let perSecond = Double(n) / t
            table.add(grouped(n), "\(threads)", fixed(perSecond / 1e6, 3), fixed(1e9 / perSecond, 2))
            ctx.figures.record("\(key).threads\(threads).pairs_per_s", perSecond)
        }
        table.print()
    }
}

import GeoNews

/// Great-circle distance throughput on random pairs of positions (uniform over the sphere).
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
        var table = Table("distance: GreatCircle.distance(from:to:) (haversine, median of \(o.runs) passes)",
                          columns: ["pairs", "threads", "M pairs/s", "ns/pair"])
        for threads in Set([1, o.threads]).sorted() {
            let sums = SharedSlots(UnsafeMutablePointer<Double>.allocate(capacity: threads))
            sums.base.initialize(repeating: 0, count: threads)
            let t = Measure.median(runs: o.runs) {
                Measure.onThreads(threads) { w in
                    var sum = 0.0
                    for i in share(of: n, worker: w, workers: threads) { sum += GreatCircle.distance(from: a[i], to: b[i]) }
                    sums[w] += sum
                }
            }
            consume(sums[0])
            sums.base.deallocate()
            let perSecond = Double(n) / t
            table.add(grouped(n), "\(threads)", fixed(perSecond / 1e6, 2), fixed(1e9 / perSecond, 2))
            ctx.figures.record("distance.threads\(threads).pairs_per_s", perSecond)
        }
        table.print()
        if let path = ctx.outputPath("pairs.csv") {
            try PointSets.writeRows(path: path, header: "lat1,lon1,lat2,lon2,km", count: n) { i in
                "\(a[i].latitude),\(a[i].longitude),\(b[i].latitude),\(b[i].longitude),\(GreatCircle.distance(from: a[i], to: b[i]))"
            }
        }
    }
}

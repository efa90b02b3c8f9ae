import GeoNews
import GeoNewsBenchmarking

/// Lookup throughput: `CountryIndex.countryIndex(at:)`, `AreaIndex.region(at:)` and the full `CountryResolver.resolve`,
/// on city-like points, random land and open sea, on one thread and on several sharing one index.
enum ResolveSuite {
    /// Points timed through the full resolver, on land-heavy sets and at sea.
    static let resolveLandSlice = 100_000, resolveSeaSlice = 2_000
    /// Points inside a country timed through ``AreaIndex/borderDistanceKm(at:country:)``.
    static let borderSlice = 20_000

    static func run(_ ctx: BenchContext) throws {
        let o = ctx.options
        let n = o.points(default: 1_000_000)
        // The border distance, a search of the grid around each point, is left out: it is what a
        // batch resolver does unless asked, and it would dominate the per-point cost.
        let resolver = try CountryResolver.load(
            from: ctx.directory,
            options: ResolverOptions(
                measures: .init(borderDistance: false, seaSearchKm: .infinity),
                precomputesMarkerGrid: false, buildsBorderTable: false))
        let index = resolver.index
        var rng = SplitMix64(seed: o.seed)
        var sets: [(name: String, points: [Coordinate])] = []
        if let input = o.input {
            sets.append(("cities", try PointSets.read(csv: input)))
        } else {
            print("resolve: no --input CSV, so no city-like row (Benchmarks/run-country.sh passes GeoNames cities1000)")
        }
        sets.append(("land", PointSets.sample(n, land: true, index: index, rng: &rng)))
        sets.append(("sea", PointSets.sample(n, land: false, index: index, rng: &rng)))

        var table = Table(
            "resolve: points per second (median of \(o.runs) passes; \(o.threads) threads share one index)",
            columns: ["points", "count", "call", "threads", "M points/s", "ns/point", "best M/s", "on land"])
        for (name, points) in sets {
            let answers = points.map { index.countryIndex(at: $0).map(Int16.init) ?? -1 }
            let landShare = Double(answers.filter { $0 >= 0 }.count) / Double(points.count)
            if let path = ctx.outputPath("\(name).ours.i16") { try PointSets.write(answers: answers, to: path) }
            if name != "cities", let path = ctx.outputPath("\(name).csv") { try PointSets.write(points, csv: path) }

            for threads in Set([1, o.threads]).sorted() {
                let t = timedPasses(points, threads: threads, runs: o.runs) { index.countryIndex(at: $0) ?? -1 }
                record(&table, ctx, name, points.count, "index", threads, t, landShare)
            }
            // The area index the resolver answers from (country and zone in one lookup), side by side.
            let areas = resolver.areas
            for threads in Set([1, o.threads]).sorted() {
                let t = timedPasses(points, threads: threads, runs: o.runs) { areas.region(at: $0) ?? -1 }
                record(&table, ctx, name, points.count, "areas", threads, t, landShare)
            }
            // At sea the full resolver searches for the nearest land with no distance bound,
            // which costs far more than a lookup; a slice keeps the suite short.
            let slice = Array(points.prefix(name == "sea" ? resolveSeaSlice : resolveLandSlice))
            for threads in Set([1, o.threads]).sorted() {
                let t = timedPasses(slice, threads: threads, runs: o.runs) { resolver.resolve($0).suggestion.distanceKm > 0 ? 1 : 0 }
                record(&table, ctx, name, slice.count, "resolve", threads, t, landShare)
            }
            // The border distance `geonews --lat --lon` and `GET /v1/resolve` add: a search of the
            // grid around each point inside a country, timed alone.
            if name != "sea" {
                let inside = slice.filter { areas.region(at: $0).flatMap(areas.country(ofRegion:)) != nil }.prefix(borderSlice)
                let t = timedPasses(Array(inside), threads: 1, runs: o.runs) { p in
                    Int(areas.borderDistanceKm(at: p, country: areas.region(at: p).flatMap(areas.country(ofRegion:)) ?? 0))
                }
                record(&table, ctx, name, inside.count, "border", 1, t, 1)
                let clock = ContinuousClock()
                var borderTable: AreaBorderTable?
                let built = clock.measure { borderTable = AreaBorderTable(areas) }
                print("AreaBorderTable built in \(built)")
                let withTable = timedPasses(Array(inside), threads: 1, runs: o.runs) { [borderTable] p in
                    Int(
                        areas.borderDistanceKm(
                            at: p, country: areas.region(at: p).flatMap(areas.country(ofRegion:)) ?? 0, table: borderTable))
                }
                record(&table, ctx, name, inside.count, "border+table", 1, withTable, 1)
            }
        }
        table.print()
    }

    private static func record(
        _ table: inout Table, _ ctx: BenchContext, _ set: String, _ count: Int,
        _ call: String, _ threads: Int, _ seconds: (median: Double, best: Double), _ landShare: Double
    ) {
        let perSecond = Double(count) / seconds.median, best = Double(count) / seconds.best
        let label =
            [
                "index": "CountryIndex.countryIndex(at:)", "areas": "AreaIndex.region(at:)",
                "border": "AreaIndex.borderDistanceKm", "border+table": "borderDistanceKm, AreaBorderTable",
            ][call] ?? "CountryResolver.resolve"
        table.add(
            set, grouped(count), label,
            "\(threads)", fixed(perSecond / 1e6, 2), fixed(1e9 / perSecond, 1), fixed(best / 1e6, 2), fixed(landShare * 100, 1) + " %")
        ctx.figures.record("resolve.\(set).\(call).threads\(threads).points_per_s", perSecond)
        ctx.figures.record("resolve.\(set).\(call).threads\(threads).best_points_per_s", best)
    }
}

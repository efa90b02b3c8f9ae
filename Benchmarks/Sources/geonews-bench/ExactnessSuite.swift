import GeoNews
import GeoNewsBenchmarking
import GeoNewsBoundaryBuilding

/// The index against GEOS's exact prepared-polygon test (`ExactCountryLocator`): uniformly
/// random points, then probes a hair to every side of every boundary vertex. Every worker
/// thread owns its locator, since a GEOS context belongs to one thread.
enum ExactnessSuite {
    /// Offsets of the vertex probes, degrees (1e-9° is about 0.1 mm).
    static let probeOffsets = [1e-9, 1e-7, 1e-6]
    static let directions: [(Double, Double)] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]

    struct Tally {
        var points = 0, agree = 0, onEdge = 0, mismatches = 0, skippedNearEdgeOfMap = 0
        var examples: [String] = []

        mutating func add(_ o: Tally) {
            points += o.points; agree += o.agree; onEdge += o.onEdge; mismatches += o.mismatches
            skippedNearEdgeOfMap += o.skippedNearEdgeOfMap
            examples += o.examples.prefix(max(0, 10 - examples.count))
        }
    }

    static func run(_ ctx: BenchContext) throws {
        let o = ctx.options
        let n = o.points(default: 10_000_000)
        let index = try ctx.resolver().index
        let boundaries = try BoundaryFile(directory: ctx.directory)
        var vertices: [(x: Double, y: Double)] = []
        for i in 0..<boundaries.count { vertices += try boundaryVertices(try boundaries.wkb(i), entry: i) }
        let probeCount = vertices.count * probeOffsets.count * directions.count
        let allVertices = vertices
        let seed = o.seed, threads = o.threads

        let randomTallies = UnsafeMutablePointer<Tally>.allocate(capacity: threads)
        let probeTallies = UnsafeMutablePointer<Tally>.allocate(capacity: threads)
        randomTallies.initialize(repeating: Tally(), count: threads)
        probeTallies.initialize(repeating: Tally(), count: threads)
        defer { randomTallies.deallocate(); probeTallies.deallocate() }
        let randomSlots = SharedSlots(randomTallies), probeSlots = SharedSlots(probeTallies)
        let failures = SharedSlots(UnsafeMutablePointer<String?>.allocate(capacity: threads))
        failures.base.initialize(repeating: nil, count: threads)
        defer { failures.base.deallocate() }

        let seconds = Measure.seconds {
            onThreads(threads) { w in
                do {
                    let exact = try ExactCountryLocator(boundaries: boundaries)
                    // Worker w draws its own stream, so the points do not depend on scheduling.
                    var rng = SplitMix64(seed: seed &+ UInt64(w) &* 0x1_0000_0001)
                    var random = Tally()
                    for _ in share(of: n, worker: w, workers: threads) {
                        let p = Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
                        try check(p, index: index, exact: exact, into: &random)
                    }
                    randomSlots[w] = random
                    var probes = Tally()
                    for v in share(of: allVertices.count, worker: w, workers: threads) {
                        let vertex = allVertices[v]
                        for d in probeOffsets {
                            for (dx, dy) in directions {
                                let p = Coordinate(latitude: vertex.y + dy * d, longitude: vertex.x + dx * d)
                                try check(p, index: index, exact: exact, into: &probes)
                            }
                        }
                    }
                    probeSlots[w] = probes
                } catch {
                    failures[w] = "\(error)"
                }
            }
        }
        if let failure = (0..<threads).compactMap({ failures[$0] }).first { throw ExactnessError.oracle(failure) }
        var random = Tally(), probes = Tally()
        for w in 0..<threads { random.add(randomSlots[w]); probes.add(probeSlots[w]) }

        var table = Table(
            "exactness: CountryIndex vs GEOS prepared polygons (\(threads) threads, \(fixed(seconds, 1)) s)",
            columns: ["points", "compared", "agree", "on an edge, either side", "map edge, skipped", "mismatches"])
        for (name, t) in [
            ("uniform random lon/lat", random),
            ("vertex probes: \(grouped(vertices.count)) vertices × 3 offsets × 8 directions", probes),
        ] {
            table.add(name, grouped(t.points), grouped(t.agree), grouped(t.onEdge), grouped(t.skippedNearEdgeOfMap), grouped(t.mismatches))
        }
        table.print()
        for e in random.examples + probes.examples { print("  mismatch at \(e)") }
        ctx.figures.record("exactness.random.points", Double(random.points))
        ctx.figures.record("exactness.random.mismatches", Double(random.mismatches))
        ctx.figures.record("exactness.probes.points", Double(probes.points))
        ctx.figures.record("exactness.probes.on_edge", Double(probes.onEdge))
        ctx.figures.record("exactness.probes.mismatches", Double(probes.mismatches))
        ctx.figures.record("exactness.seconds", seconds)
        precondition(probes.points + probes.skippedNearEdgeOfMap == probeCount, "every probe is counted once")
    }

    /// Compares one point. A disagreement is forgiven only where GEOS puts the point exactly on
    /// a boundary and our answer is one of the countries whose boundary holds it (or none):
    /// there the answer depends on the edge convention, as in the unit tests.
    @inline(__always)
    private static func check(_ p: Coordinate, index: CountryIndex, exact: ExactCountryLocator, into t: inout Tally) throws {
        // Within edgeNudge of the antimeridian or a pole the index looks up from just inside
        // (documented on countryIndex(at:)), so it is not the raw polygon answer there.
        let e = CountryIndex.edgeNudge
        guard abs(p.longitude) < 180 - e, abs(p.latitude) < 90 - e else {
            t.skippedNearEdgeOfMap += 1
            return
        }
        t.points += 1
        let ours = index.countryIndex(at: p)
        let theirs = try exact.countryIndex(at: p)
        if ours == theirs {
            t.agree += 1
            return
        }
        let boundary = try exact.boundaryCountries(at: p)
        if !boundary.isEmpty && (ours == nil || boundary.contains(ours!)) {
            t.onEdge += 1
            return
        }
        t.mismatches += 1
        if t.examples.count < 10 {
            t.examples.append(
                "\(p.latitude), \(p.longitude): index \(ours.map(String.init) ?? "sea"), GEOS \(theirs.map(String.init) ?? "sea")")
        }
    }
}

enum ExactnessError: Error, CustomStringConvertible {
    case oracle(String)
    var description: String {
        switch self {
        case .oracle(let message): return "the GEOS oracle failed: \(message)"
        }
    }
}

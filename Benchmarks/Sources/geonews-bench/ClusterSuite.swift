import GeoNews
import GeoNewsBenchmarking

/// Cluster index build and queries at camera altitudes, through GeoNewsClustering's public API
/// (supercluster's default options: zooms 0–16, radius 40, extent 512).
enum ClusterSuite {
    static let altitudesKm = [15_000.0, 1_000, 10]
    /// The viewport queries look at Paris on an iPhone-sized screen (390 × 844 points).
    static let viewport = Viewport(center: Coordinate(latitude: 48.8566, longitude: 2.3522))

    static func run(_ ctx: BenchContext) throws {
        let o = ctx.options
        let n = o.points(default: 1_000_000)
        var rng = SplitMix64(seed: o.seed &+ 11)
        let points = (0..<n).map { _ in Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180)) }
        let rssBefore = ProcessStatus.residentMB()
        var index: ClusterIndex?
        let buildRuns = min(o.runs, 3)
        let build = try Measure.median(runs: buildRuns) {
            index = nil
            index = try ClusterIndex(points: points)
        }
        guard let index else { return }
        let rssAfter = ProcessStatus.residentMB()
        var table = Table(
            "cluster: \(grouped(n)) uniformly random points; build \(fixed(build, 3)) s (median of \(buildRuns)), "
                + "index +\(fixed(rssAfter - rssBefore, 0)) MB resident",
            columns: ["altitude", "zoom", "clusters + points, world", "world query ms", "in viewport", "viewport query ms"])
        ctx.figures.record("cluster.build.s", build)
        let runs = max(o.runs, 5)
        for km in altitudesKm {
            let zoom = try CameraAltitude(metres: km * 1000).zoom(latitude: viewport.center.latitude, viewportHeight: viewport.height)
            let box = viewport.bounds(atZoom: zoom)
            var world = 0, inView = 0
            let worldTime = try Measure.median(runs: runs) { world = try index.clusters(in: .world, zoom: zoom).count }
            let viewTime = try Measure.median(runs: runs) { inView = try index.clusters(in: box, zoom: zoom).count }
            table.add(
                grouped(Int(km)) + " km", fixed(zoom, 2), grouped(world), fixed(worldTime * 1e3, 3),
                grouped(inView), fixed(viewTime * 1e3, 3))
            ctx.figures.record("cluster.\(Int(km))km.world.ms", worldTime * 1e3)
            ctx.figures.record("cluster.\(Int(km))km.viewport.ms", viewTime * 1e3)
        }
        table.print()
    }
}

import ArgumentParser
import GeoNewsBenchmarking
import GeoNewsBoundaries
import GeoNewsClustering
import GeoNewsCommandLine
import GeoNewsGeodesy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// `geonews bench cluster`: build time, peak memory and query times of clustering at
/// several camera altitudes.
struct BenchClusterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Benchmark clustering of random world points at several camera altitudes.",
        discussion: """
            Points are uniform in longitude −180…180 and latitude −85…85 (the Web Mercator map), \
            from a SplitMix64 generator seeded with --seed, so runs are repeatable. Reports the \
            index build time (one core), peak resident memory of the process (VmHWM), and per \
            altitude: zoom (at --center, in a 390x844 viewport, 512-point tiles), items shown, \
            and the median time to query the whole world and the viewport.

            --input FILE clusters the points of a CSV or GeoJSON file instead; --dump FILE then \
            writes every level's whole-world items as zoom, kind, count, latitude, longitude \
            (tab-separated), which Benchmarks/peers/cluster_compare.py checks against pysupercluster.
            """
    )

    @Option(help: "Number of random points.")
    var points: Int = 1_000_000

    @Option(help: ArgumentHelp("Camera altitudes, comma-separated.", valueName: "list"))
    var altitudes: String = "15000km,5000km,1000km,100km,10km"

    @Option(help: "Seed of the point generator.")
    var seed: UInt64 = 42

    @Option(parsing: .unconditional, help: ArgumentHelp("Viewport centre for viewport queries, LAT,LON.", valueName: "lat,lon"))
    var center: String = "48.8566,2.3522"

    @Option(help: ArgumentHelp("Cluster the points of this CSV or GeoJSON file instead.", valueName: "file"))
    var input: String?

    @Option(help: ArgumentHelp("Write every level's whole-world items to this file.", valueName: "file"))
    var dump: String?

    @Option(help: "Query repetitions; the median is reported.")
    var repeats: Int = 5

    @OptionGroup var clustering: ClusteringOptions

    func run() async throws {
        let cameras: [CameraAltitude]
        do {
            cameras = try altitudes.split(separator: ",").map { text throws(CameraAltitudeError) in
                try CameraAltitude(parsing: String(text))
            }
        } catch { throw fail(error.description, .usage) }
        let centre = try ClusterCommand.parseCenter(center)
        guard repeats > 0 else { throw fail("repeats \(repeats) must be 1 or more", .usage) }

        let coordinates: [Coordinate]
        if let input {
            coordinates = try ClusterCommand.readPoints(input).coordinates
        } else {
            guard points >= 0 else { throw fail("points \(points) must be 0 or more", .usage) }
            coordinates = Self.randomPoints(count: points, seed: seed)
        }
        let options = clustering.options
        print(
            "points \(coordinates.count)\(input.map { " from \($0)" } ?? " (seed \(seed))"), zooms \(options.minZoom)–\(options.maxZoom), radius \(Self.number(options.radius)), extent \(Self.number(options.extent)), min points \(options.minPoints)\(options.wrapsAntimeridian ? ", wrapping" : "")"
        )

        let startCPU = Measure.threadCPUSeconds()
        var built: ClusterIndex?
        let build = try Measure.seconds { built = try clustering.index(for: coordinates) }
        let buildCPU = Measure.threadCPUSeconds() - startCPU
        guard let index = built else { return }
        let buildPeak = ProcessStatus.peakResidentMB() ?? -1
        print(
            String(
                cFormat: "build %.3f s wall, %.3f s CPU (one thread), %d clusters made, peak RSS %d MB", build, buildCPU,
                index.clusterCount,
                buildPeak))

        print("altitude   zoom  level     items  world ms  viewport items  viewport ms")
        for camera in cameras {
            let zoom = camera.zoom(latitude: centre.latitude)
            let bounds = Viewport(center: centre).bounds(atZoom: zoom)
            var world: [ClusterFeature] = [], view: [ClusterFeature] = []
            let worldTime = try Measure.median(runs: repeats) {
                world = []; world = try index.clusters(in: .world, zoom: zoom)
            }
            let viewTime = try Measure.median(runs: repeats) {
                view = []; view = try index.clusters(in: bounds, zoom: zoom)
            }
            print(
                camera.description.padded(to: 9)
                    + String(
                        cFormat: " %5.2f  %5d %9d  %8.3f  %14d  %11.3f",
                        zoom, try index.level(forZoom: zoom), world.count,
                        worldTime * 1000, view.count, viewTime * 1000))
        }
        var zoom5: [ClusterFeature] = []
        let zoom5Time = try Measure.median(runs: repeats) {
            zoom5 = []; zoom5 = try index.clusters(in: .world, zoom: 5)
        }
        print(String(cFormat: "whole world at zoom 5: %d items in %.3f ms", zoom5.count, zoom5Time * 1000))
        print(
            String(
                cFormat:
                    "json {\"points\":%d,\"build_seconds\":%.6f,\"build_cpu_seconds\":%.6f,\"peak_rss_mb\":%d,\"clusters\":%d,\"world_zoom5_ms\":%.3f}",
                coordinates.count, build, buildCPU, buildPeak, index.clusterCount, zoom5Time * 1000))
        if let dump { try write(index, to: dump) }
    }

    private func write(_ index: ClusterIndex, to path: String) throws {
        guard let file = fopen(path, "w") else { throw fail("cannot write '\(path)': \(String(cString: strerror(errno)))", .ioError) }
        defer { fclose(file) }
        for zoom in index.options.minZoom...index.options.maxZoom {
            var lines = ""
            try index.forEachFeature(in: .world, zoom: Double(zoom)) { f in
                let kind = f.clusterID == nil ? "point" : "cluster"
                lines += "\(zoom)\t\(kind)\t\(f.pointCount)\t\(f.coordinate.latitude)\t\(f.coordinate.longitude)\n"
            }
            guard fputs(lines, file) >= 0 else { throw fail("cannot write '\(path)'", .ioError) }
        }
    }

    /// Uniform points from the shared SplitMix64: longitude in −180…180, then latitude in −85…85.
    static func randomPoints(count: Int, seed: UInt64) -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        var points: [Coordinate] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            let longitude = random.uniform(-180, 180)
            points.append(Coordinate(latitude: random.uniform(-85, 85), longitude: longitude))
        }
        return points
    }

    static func number(_ v: Double) -> String { Int(exactly: v).map(String.init) ?? String(v) }
}

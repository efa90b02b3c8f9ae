import ArgumentParser
import GeoNewsBoundaries
import GeoNewsClustering
import GeoNewsCommandLine
import GeoNewsGeodesy
import GeoNewsPoints
import GeoNewsTraces

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// `geonews cluster`: the bubbles a news map shows at a camera altitude or zoom.
struct ClusterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Cluster the news-country markers (or your points) for a camera altitude or zoom.",
        discussion: """
            Prints an RFC 7946 GeoJSON FeatureCollection: clusters carry cluster, cluster_id, \
            point_count, expansion_zoom (tap to zoom there) and members (the ids of their points); \
            lone points carry their id. --summary prints a table instead.

            --altitude converts to a zoom with MapKit's 30° field of view over 512-point tiles at \
            the latitude of --center, for a viewport of --viewport points. Without --bbox the \
            query covers that viewport around --center, or the whole world without --center.
            """
    )

    @Option(help: ArgumentHelp("Camera altitude: 15000km, 10km, 2500m.", valueName: "altitude"))
    var altitude: String?

    @Option(help: ArgumentHelp("Zoom level, fractional allowed (levels are floor(zoom)).", valueName: "zoom"))
    var zoom: String?

    // `.unconditional`: the value may start with a minus (`--center -33.8,151.2`), which
    // ArgumentParser would otherwise take for an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("View centre as LAT,LON in degrees.", valueName: "lat,lon"))
    var center: String?

    @Option(help: ArgumentHelp("Viewport size in points, WIDTHxHEIGHT.", valueName: "WxH"))
    var viewport: String = "390x844"

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Query box W,S,E,N in degrees (W > E crosses the antimeridian).", valueName: "w,s,e,n"))
    var bbox: String?

    @Option(
        help: ArgumentHelp(
            "Points to cluster: CSV with lat/lon columns, or GeoJSON Points; `-` reads standard input (default: the 54 news-country markers).",
            valueName: "file"))
    var input: String?

    @Option(help: "Map tile size in points for --altitude: 512 or 256.")
    var tileSize: Int = 512

    @OptionGroup var clustering: ClusteringOptions

    @Flag(help: "Print a short table instead of GeoJSON.")
    var summary = false

    @OptionGroup var data: DataOptions

    func run() async throws {
        let points = try loadPoints()
        let index = try clustering.index(for: points.coordinates)
        let query: ClusterQuery
        do {
            query = try ClusterQuery(
                zoom: zoom, altitude: altitude, bbox: bbox, center: center,
                viewport: viewport, tileSize: tileSize)
        } catch {
            throw fail(error.description, .usage)
        }
        let features = try index.clusters(in: query.bounds, zoom: query.zoom)
        if summary {
            printSummary(features, index: index, points: points, zoom: (query.zoom, query.origin), bounds: query.bounds)
        } else {
            print(try geoJSON(features, index: index, points: points))
        }
    }

    private func loadPoints() throws -> PointFile {
        if let input { return try Self.readPoints(input) }
        return PointFile.newsMarkers(of: try data.catalogue())
    }

    /// A `--center LAT,LON` value, or a usage failure naming it.
    static func parseCenter(_ center: String) throws -> Coordinate {
        do { return try ClusterQueryText.center(center) } catch { throw fail(error.description, .usage) }
    }

    /// The points of `--input` (`-` for standard input), or a failure naming the file and the
    /// line or feature.
    static func readPoints(_ path: String) throws -> PointFile {
        do {
            return try PointFile.read(path == "-" ? .standardInput : .file(path))
        } catch {
            if case .unreadable = error { throw fail(error.description, .noInput) }
            throw fail(error.description, .usage)
        }
    }

    private func geoJSON(_ features: [ClusterFeature], index: ClusterIndex, points: PointFile) throws -> String {
        try index.featureCollection(features, ids: points.ids, names: points.names)
    }

    private func printSummary(
        _ features: [ClusterFeature], index: ClusterIndex, points: PointFile,
        zoom: (value: Double, origin: String), bounds: ClusterIndex.Bounds
    ) {
        let clusters = features.filter { $0.clusterID != nil }.count
        let level = (try? index.level(forZoom: zoom.value)) ?? 0
        print("\(zoom.origin); level \(level); bbox \(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north)")
        print("\(features.count) items: \(clusters) clusters, \(features.count - clusters) points (of \(points.coordinates.count))")
        for f in features.sorted(by: { $0.pointCount > $1.pointCount }) {
            let at = String(cFormat: "%8.3f %9.3f", f.coordinate.latitude, f.coordinate.longitude)
            switch f.kind {
            case .cluster(let id):
                let members = (try? index.leaves(of: id, limit: 12)) ?? []
                let more = f.pointCount > members.count ? " …" : ""
                let expands = (try? index.expansionZoom(of: id)).map(String.init) ?? "?"
                print(
                    "  cluster \(at)  \(f.pointCount) points, splits at zoom \(expands): \(members.map { points.ids[$0] }.joined(separator: " "))\(more)"
                )
            case .point(let p):
                print("  point   \(at)  \(points.ids[p])\(points.names[p].map { " " + $0 } ?? "")")
            }
        }
    }
}

/// The `ClusterOptions` flags shared by `geonews cluster` and `geonews bench cluster`.
struct ClusteringOptions: ParsableArguments {
    @Option(help: "Cluster radius in pixels.", transform: { try FiniteNumber.parse($0) })
    var radius: Double = 40
    @Option(help: "Tile extent in pixels the radius is relative to.", transform: { try FiniteNumber.parse($0) })
    var extent: Double = 512
    @Option(help: "Lowest zoom that clusters.")
    var minZoom: Int = 0
    @Option(help: "Highest zoom that clusters (0…254).")
    var maxZoom: Int = 16
    @Option(help: "Fewest points that make a cluster.")
    var minPoints: Int = 2
    @Flag(help: "Let points on both sides of the antimeridian join one cluster.")
    var wrap = false

    var options: ClusterOptions {
        ClusterOptions(minZoom: minZoom, maxZoom: maxZoom, minPoints: minPoints, radius: radius, extent: extent, wrapsAntimeridian: wrap)
    }

    func index(for points: [Coordinate]) throws -> ClusterIndex {
        do { return try ClusterIndex(points: points, options: options) } catch { throw fail(error.description, .usage) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import GeoNewsBoundaries
import GeoNewsClustering
import GeoNewsCommandLine
import GeoNewsGeodesy

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

    @Option(help: ArgumentHelp("View centre as LAT,LON in degrees.", valueName: "lat,lon"))
    var center: String?

    @Option(help: ArgumentHelp("Viewport size in points, WIDTHxHEIGHT.", valueName: "WxH"))
    var viewport: String = "390x844"

    @Option(help: ArgumentHelp("Query box W,S,E,N in degrees (W > E crosses the antimeridian).", valueName: "w,s,e,n"))
    var bbox: String?

    @Option(help: ArgumentHelp("Points to cluster: CSV with lat/lon columns, or GeoJSON Points (default: the 54 news-country markers).", valueName: "file"))
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
        let zoom = try resolvedZoom()
        let bounds = try queryBounds(zoom: zoom.value)
        let features = try index.clusters(in: bounds, zoom: zoom.value)
        if summary {
            printSummary(features, index: index, points: points, zoom: zoom, bounds: bounds)
        } else {
            print(try geoJSON(features, index: index, points: points))
        }
    }

    private func loadPoints() throws -> ClusterInput {
        if let input {
            do { return try ClusterInput.read(path: input) } catch { throw fail(error.message, error.status) }
        }
        var markers = ClusterInput()
        for country in try data.catalogue().newsCountries {
            markers.coordinates.append(country.marker)
            markers.ids.append(country.iso2 ?? country.id)
            markers.names.append(country.name)
        }
        return markers
    }

    /// The zoom to query, and how it was reached (for the summary).
    private func resolvedZoom() throws -> (value: Double, origin: String) {
        switch (zoom, altitude) {
        case (.some, .some):
            throw fail("give --zoom or --altitude, not both", .usage)
        case (.some(let text), nil):
            guard let z = Double(text), z.isFinite else { throw fail("zoom '\(text)' is not a number", .usage) }
            return (z, "zoom \(text)")
        case (nil, .some(let text)):
            let camera: CameraAltitude
            do { camera = try CameraAltitude(parsing: text) } catch { throw fail(error.description, .usage) }
            guard tileSize == 512 || tileSize == 256 else { throw fail("tile size \(tileSize) is not 512 or 256", .usage) }
            let latitude = try parsedCenter()?.latitude ?? 0
            let size = try parsedViewport()
            let z = camera.zoom(latitude: latitude, viewportHeight: size.height, tileSize: Double(tileSize))
            return (z, "altitude \(camera) at \(latitude)° in \(Int(size.width))x\(Int(size.height)) → zoom \(String(format: "%.2f", z))")
        case (nil, nil):
            throw fail("give --altitude (e.g. 15000km) or --zoom", .usage)
        }
    }

    private func queryBounds(zoom: Double) throws -> ClusterIndex.Bounds {
        if let bbox {
            let parts = bbox.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3],
                  [w, s, e, n].allSatisfy(\.isFinite) else {
                throw fail("bbox '\(bbox)' is not four numbers W,S,E,N", .usage)
            }
            guard s <= n else { throw fail("bbox '\(bbox)': south \(s) is north of north \(n)", .usage) }
            return ClusterIndex.Bounds(west: w, south: s, east: e, north: n)
        }
        guard let centre = try parsedCenter() else { return .world }
        let size = try parsedViewport()
        return Viewport(center: centre, width: size.width, height: size.height)
            .bounds(atZoom: zoom, tileSize: Double(tileSize))
    }

    private func parsedCenter() throws -> Coordinate? {
        try center.map(Self.parseCenter)
    }

    /// A `--center LAT,LON` value, or a usage failure naming it.
    static func parseCenter(_ center: String) throws -> Coordinate {
        let parts = center.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw fail("center '\(center)' is not LAT,LON", .usage) }
        do {
            return try parsePosition(lat: String(parts[0]), lon: String(parts[1]))
        } catch {
            throw fail("center '\(center)': \(error)", .usage)
        }
    }

    private func parsedViewport() throws -> (width: Double, height: Double) {
        let parts = viewport.lowercased().split(separator: "x").map { Double($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw fail("viewport '\(viewport)' is not WIDTHxHEIGHT in points, e.g. 390x844", .usage)
        }
        return (w, h)
    }

    private func geoJSON(_ features: [ClusterFeature], index: ClusterIndex, points: ClusterInput) throws -> String {
        var out = #"{"type":"FeatureCollection","features":["#
        for (i, f) in features.enumerated() {
            if i > 0 { out += "," }
            out += #"{"type":"Feature","geometry":{"type":"Point","coordinates":["#
            out += "\(f.coordinate.longitude),\(f.coordinate.latitude)]},\"properties\":{"
            switch f.kind {
            case .cluster(let id):
                let members = try index.leaves(of: id, limit: .max).map { jsonString(points.ids[$0]) }
                out += "\"cluster\":true,\"cluster_id\":\(id.rawValue),\"point_count\":\(f.pointCount),"
                out += "\"expansion_zoom\":\(try index.expansionZoom(of: id)),\"members\":[\(members.joined(separator: ","))]"
            case .point(let p):
                out += "\"id\":\(jsonString(points.ids[p]))"
                if let name = points.names[p] { out += ",\"name\":\(jsonString(name))" }
            }
            out += "}}"
        }
        return out + "]}"
    }

    private func printSummary(
        _ features: [ClusterFeature], index: ClusterIndex, points: ClusterInput,
        zoom: (value: Double, origin: String), bounds: ClusterIndex.Bounds
    ) {
        let clusters = features.filter { $0.clusterID != nil }.count
        let level = (try? index.level(forZoom: zoom.value)) ?? 0
        print("\(zoom.origin); level \(level); bbox \(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north)")
        print("\(features.count) items: \(clusters) clusters, \(features.count - clusters) points (of \(points.coordinates.count))")
        for f in features.sorted(by: { $0.pointCount > $1.pointCount }) {
            let at = String(format: "%8.3f %9.3f", f.coordinate.latitude, f.coordinate.longitude)
            switch f.kind {
            case .cluster(let id):
                let members = (try? index.leaves(of: id, limit: 12)) ?? []
                let more = f.pointCount > members.count ? " …" : ""
                let expands = (try? index.expansionZoom(of: id)).map(String.init) ?? "?"
                print("  cluster \(at)  \(f.pointCount) points, splits at zoom \(expands): \(members.map { points.ids[$0] }.joined(separator: " "))\(more)")
            case .point(let p):
                print("  point   \(at)  \(points.ids[p])\(points.names[p].map { " " + $0 } ?? "")")
            }
        }
    }
}

/// The `ClusterOptions` flags shared by `geonews cluster` and `geonews bench cluster`.
struct ClusteringOptions: ParsableArguments {
    @Option(help: "Cluster radius in pixels.")
    var radius: Double = 40
    @Option(help: "Tile extent in pixels the radius is relative to.")
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

/// A JSON string literal.
func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}

// MARK: - Input files

import GeoNewsBoundaries
import GeoNewsClustering
import GeoNewsCommandLine
import GeoNewsGeodesy

/// Points read for `geonews cluster --input` and `geonews bench cluster --input`, with an id
/// per point for the GeoJSON output.
struct ClusterInput {
    var coordinates: [Coordinate] = []
    /// One id per point; the row or feature number (from 0) where the file gives none.
    var ids: [String] = []
    var names: [String?] = []

    struct Failure: Error, CustomStringConvertible {
        let message: String
        let status: ExitStatus
        var description: String { message }
    }

    /// Reads a CSV file (streamed line by line) or, for `.json`/`.geojson` or text starting
    /// with `{`, a GeoJSON FeatureCollection of Points.
    static func read(path: String) throws(Failure) -> ClusterInput {
        guard let file = fopen(path, "r") else {
            throw Failure(message: "cannot open input '\(path)': \(String(cString: strerror(errno)))", status: .noInput)
        }
        defer { fclose(file) }
        let first = getc(file)
        ungetc(first, file)
        let lower = path.lowercased()
        if lower.hasSuffix(".json") || lower.hasSuffix(".geojson") || first == Int32(UInt8(ascii: "{")) {
            return try readGeoJSON(path: path)
        }
        return try readCSV(file: file, path: path)
    }

    /// CSV with a header naming `lat`/`latitude` and `lon`/`lng`/`longitude` columns (and
    /// optionally `id` and `name`), or with no header and latitude, longitude first.
    private static func readCSV(file: UnsafeMutablePointer<FILE>, path: String) throws(Failure) -> ClusterInput {
        var input = ClusterInput()
        var latColumn = 0, lonColumn = 1
        var idColumn: Int?, nameColumn: Int?
        var lineNumber = 0
        var sawFirstLine = false
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0 {
            lineNumber += 1
            let line = String(cString: buffer!).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            defer { sawFirstLine = true }
            if !sawFirstLine && Double(fields[0]) == nil {
                let names = fields.map { $0.lowercased() }
                guard let lat = names.firstIndex(where: { $0 == "lat" || $0 == "latitude" }),
                      let lon = names.firstIndex(where: { ["lon", "lng", "long", "longitude"].contains($0) }) else {
                    throw Failure(message: "\(path) line \(lineNumber): header has no lat and lon columns (found: \(fields.joined(separator: ",")))", status: .usage)
                }
                latColumn = lat
                lonColumn = lon
                idColumn = names.firstIndex(of: "id")
                nameColumn = names.firstIndex(of: "name")
                continue
            }
            guard fields.count > max(latColumn, lonColumn) else {
                throw Failure(message: "\(path) line \(lineNumber): expected a latitude and a longitude, got '\(line)'", status: .usage)
            }
            let coordinate: Coordinate
            do {
                coordinate = try Coordinate.validated(
                    latitude: parseDegrees(fields[latColumn], field: "latitude"),
                    longitude: parseDegrees(fields[lonColumn], field: "longitude"))
            } catch {
                throw Failure(message: "\(path) line \(lineNumber): \(error)", status: .usage)
            }
            input.coordinates.append(coordinate)
            input.ids.append(idColumn.flatMap { $0 < fields.count ? fields[$0] : nil } ?? String(input.coordinates.count - 1))
            input.names.append(nameColumn.flatMap { $0 < fields.count ? fields[$0] : nil })
        }
        return input
    }

    private static func readGeoJSON(path: String) throws(Failure) -> ClusterInput {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw Failure(message: "\(path): not valid JSON (\(error.localizedDescription))", status: .usage)
        }
        guard let root = object as? [String: Any], root["type"] as? String == "FeatureCollection",
              let features = root["features"] as? [[String: Any]] else {
            throw Failure(message: "\(path): expected a GeoJSON FeatureCollection", status: .usage)
        }
        var input = ClusterInput()
        for (i, feature) in features.enumerated() {
            guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                  let position = geometry["coordinates"] as? [Double], position.count >= 2 else {
                throw Failure(message: "\(path): feature \(i) is not a Point with [longitude, latitude]", status: .usage)
            }
            do {
                input.coordinates.append(try Coordinate.validated(latitude: position[1], longitude: position[0]))
            } catch {
                throw Failure(message: "\(path): feature \(i): \(error)", status: .usage)
            }
            let properties = feature["properties"] as? [String: Any]
            let id = feature["id"] ?? properties?["id"]
            input.ids.append(id.map { "\($0)" } ?? String(i))
            input.names.append(properties?["name"] as? String)
        }
        return input
    }
}

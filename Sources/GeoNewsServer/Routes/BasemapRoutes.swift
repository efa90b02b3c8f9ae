import Foundation
import GeoNews
import Hummingbird

/// `GET /basemap.geojson`: the web map's base layer (`Data/basemap.geojson`), read at start and
/// compressed once, at the first request that accepts gzip (``CompressedAsset``). Without the file the route is absent and answers 404.
struct BasemapRoutes {
    let asset: CompressedAsset?

    init(data: DataDirectory) {
        asset = FileManager.default.contents(atPath: data.file("basemap.geojson")).map {
            CompressedAsset(bytes: [UInt8]($0), contentType: "application/geo+json", cacheControl: "public, max-age=3600")
        }
    }

    func add(to routes: inout RouteBuilder) {
        guard let asset else { return }
        routes.get("/basemap.geojson") { request, _ in asset.response(to: request) }
    }
}

import Foundation
import GeoNewsBoundaries
import GeoNewsData

/// Whether a base map is valid GeoJSON geometry: every feature's MultiPolygon valid by GEOS's
/// OGC rules (no ring crossing itself or another, holes inside their shells, polygons apart)
/// and its rings wound as RFC 7946 §3.1.6 asks, shells counter-clockwise and holes clockwise
/// (in longitude, latitude).
///
/// `geonews-index --check` runs it on the committed `Data/basemap.geojson`, so that a map
/// client that trusts the right-hand rule (d3-geo fills the outside of a clockwise shell) or
/// validity (shapely, PostGIS) draws what we mean.
public struct BasemapCheck: Sendable {
    /// Features read.
    public private(set) var features = 0
    /// Shells (exterior rings) and holes read.
    public private(set) var shells = 0, holes = 0
    /// One line per fault, naming the feature's `id`: "USA: Self-intersection[-122.5 48.3]",
    /// "FJI polygon 2: shell is clockwise".
    public private(set) var faults: [String] = []

    /// Reads `geojson` (a FeatureCollection of Polygon and MultiPolygon features).
    /// - Throws: ``/GeoNewsData/DataError/corrupt(path:reason:)`` naming `path` when it is not such a file.
    public init(geojson: [UInt8], path: String) throws(DataError) {
        let collection: FeatureCollection
        do {
            collection = try JSONDecoder().decode(FeatureCollection.self, from: Data(geojson))
        } catch {
            throw .corrupt(path: path, reason: "not a FeatureCollection of polygons (\(error))")
        }
        let context = GEOSContext()
        for feature in collection.features {
            features += 1
            let name = feature.properties.id
            var parts: [Geometry] = []
            for (p, polygon) in feature.geometry.polygons.enumerated() {
                for (r, ring) in polygon.enumerated() {
                    if r == 0 { shells += 1 } else { holes += 1 }
                    let what = r == 0 ? "shell" : "hole \(r)"
                    guard ring.count >= 4, ring.first == ring.last, ring.allSatisfy({ $0.count == 2 }) else {
                        faults.append("\(name) polygon \(p): \(what) is not a closed ring of at least 4 positions")
                        continue
                    }
                    let area = Self.signedArea(ring)
                    if r == 0 && area <= 0 { faults.append("\(name) polygon \(p): shell is clockwise") }
                    if r > 0 && area >= 0 { faults.append("\(name) polygon \(p): \(what) is counter-clockwise") }
                }
                do {
                    parts.append(try context.polygon(closedRings: polygon.map { $0.flatMap { $0 } }))
                } catch {
                    faults.append("\(name) polygon \(p): \(error)")
                }
            }
            do {
                let whole = try context.multiPolygon(parts)
                if !whole.isValid { faults.append("\(name): \(whole.validityReason)") }
            } catch {
                faults.append("\(name): \(error)")
            }
        }
    }

    /// Twice the signed area (positive when counter-clockwise) of a closed ring of positions.
    static func signedArea(_ ring: [[Double]]) -> Double {
        var sum = 0.0
        for i in 0..<(ring.count - 1) {
            sum += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1]
        }
        return sum
    }

    private struct FeatureCollection: Decodable {
        let features: [Feature]
    }

    private struct Feature: Decodable {
        let properties: Properties
        let geometry: Polygons
    }

    private struct Properties: Decodable {
        let id: String
    }

    /// A Polygon's or MultiPolygon's coordinates, as polygons of rings of positions.
    private struct Polygons: Decodable {
        let polygons: [[[[Double]]]]

        enum CodingKeys: String, CodingKey { case type, coordinates }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            switch try c.decode(String.self, forKey: .type) {
            case "Polygon": polygons = [try c.decode([[[Double]]].self, forKey: .coordinates)]
            case "MultiPolygon": polygons = try c.decode([[[[Double]]]].self, forKey: .coordinates)
            case let other:
                throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "\(other) is not polygonal")
            }
        }
    }
}

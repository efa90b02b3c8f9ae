import Foundation
import GeoNews
import GeoNewsStore

/// A set of points with its cluster index: the 54 news markers, or an upload.
struct ClusterDataset: Sendable {
    /// The name clients pass as `dataset=`.
    let name: String
    /// Changes whenever the points change; part of every ETag.
    let version: String
    let points: PointFile
    let index: ClusterIndex

    /// The news-country markers, versioned by the catalogue's source hash.
    static func markers(_ catalogue: Catalogue) throws -> ClusterDataset {
        let points = PointFile.newsMarkers(of: catalogue)
        return ClusterDataset(
            name: "markers", version: String(catalogue.source.sha256.prefix(16)), points: points,
            index: try ClusterIndex(points: points.coordinates))
    }

    /// An uploaded point file, read with the library's point-file reader and indexed.
    static func uploaded(_ record: DatasetRecord, file: URL) throws -> ClusterDataset {
        let format: PointFile.Format = file.pathExtension == "csv" ? .csv : .geoJSON
        let points = try PointFile.read(.file(file.path), format: format)
        return ClusterDataset(
            name: record.id, version: record.version, points: points,
            index: try ClusterIndex(points: points.coordinates))
    }

    /// The most bytes of a cluster, tile or leaves answer in GeoJSON: the vector tiles' limit.
    static let maximumAnswerBytes = ClusterIndex.maximumTileBytes

    /// `features` as a FeatureCollection with supercluster's abbreviated counts, of at most
    /// ``maximumAnswerBytes`` (those left out are counted in its `omitted` member).
    func featureCollection(_ features: [ClusterFeature]) throws -> String {
        try index.featureCollection(
            features, ids: points.ids, names: points.names, abbreviatedCounts: true,
            maximumBytes: Self.maximumAnswerBytes)
    }
}

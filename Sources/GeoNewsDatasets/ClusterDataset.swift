import Foundation
import GeoNews
import GeoNewsStore

/// A set of points with its cluster index: the 54 news markers (built at start, on the heap),
/// or an upload (read in place from its mapped archive, see ``DatasetArchive``).
package struct ClusterDataset: Sendable {
    /// The name clients pass as `dataset=`.
    package let name: String
    /// Changes whenever the points change; part of every ETag.
    package let version: String
    package let index: ClusterIndex
    /// The points' ids and names.
    package let labels: any PointLabels & Sendable
    /// Bytes of the archive this dataset is mapped from; 0 for one on the heap.
    package let mappedBytes: Int

    /// The number of points.
    package var pointCount: Int { index.points.count }

    /// The news-country markers, versioned by the catalogue's source hash.
    package static func markers(_ catalogue: Catalogue) throws -> ClusterDataset {
        let points = PointFile.newsMarkers(of: catalogue)
        return ClusterDataset(
            name: "markers", version: String(catalogue.source.sha256.prefix(16)),
            index: try ClusterIndex(points: points.coordinates), labels: PointLabelArrays(ids: points.ids, names: points.names),
            mappedBytes: 0)
    }

    /// The most bytes of a cluster, tile or leaves answer in GeoJSON: the vector tiles' limit.
    package static let maximumAnswerBytes = ClusterIndex.maximumTileBytes

    /// `features` as a FeatureCollection with supercluster's abbreviated counts, of at most
    /// ``maximumAnswerBytes`` (those left out are counted in its `omitted` member).
    package func featureCollection(_ features: [ClusterFeature]) throws -> String {
        try index.featureCollection(features, labels: labels, abbreviatedCounts: true, maximumBytes: Self.maximumAnswerBytes)
    }
}

import GeoNews

/// A set of points with its cluster index: the 54 news markers, or (later) an upload.
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
        return ClusterDataset(name: "markers", version: String(catalogue.source.sha256.prefix(16)), points: points,
                              index: try ClusterIndex(points: points.coordinates))
    }

    /// `features` as a FeatureCollection with supercluster's abbreviated counts.
    func featureCollection(_ features: [ClusterFeature]) throws -> String {
        try index.featureCollection(features, ids: points.ids, names: points.names, abbreviatedCounts: true)
    }
}

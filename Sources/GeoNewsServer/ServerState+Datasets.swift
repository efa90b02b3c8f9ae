import GeoNews
import GeoNewsDatasets

extension ServerState {
    /// The dataset `name`, mapped (or verified, or rebuilt) first when it must be: 404 for an
    /// unknown name, 500 naming the file and the problem for a stored dataset whose files are
    /// unusable.
    func dataset(_ name: String) async throws -> ClusterDataset {
        do {
            guard let dataset = try await sharedDatasets.dataset(name) else { throw Problem.notFound("dataset", name) }
            return dataset
        } catch let error as DatasetLoadError {
            throw Problem(.internalServerError, title: "Dataset unavailable", detail: "the stored dataset \(name) cannot be read: \(error)")
        }
    }
}

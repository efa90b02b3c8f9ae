import GeoNews
import GeoNewsStore

/// What the routes share: loaded once at start, immutable afterwards (the store serialises
/// its own writes), so one value serves every request without locks.
struct ServerState: Sendable {
    let resolver: CountryResolver
    /// The same catalogue and index for `POST /v1/resolve`, as `geonews resolve` loads them:
    /// batch rows carry no nearest country at sea, so the sea search stops at the near-shore
    /// distance, which keeps open-sea rows as cheap as land ones (the same rows either way).
    let batchResolver: CountryResolver
    /// The batch resolver that also measures each row's distance to its country's edge, for
    /// `POST /v1/resolve?borderDistance=true` (as `geonews resolve --border-distance`); the
    /// other rows do not pay for that search.
    let borderMeasuringBatchResolver: CountryResolver
    /// The UTC-offset rules of the same data directory as the resolver (`--data`), loaded at
    /// start, so that answers never fall back to the rules of the default data folder.
    let zoneRules: TimeZoneRules
    let store: Store
    let configuration: ServerConfiguration
    /// The cluster datasets by id: `markers` always, and the uploads.
    let datasets: DatasetRegistry
    /// The provider chain, or why it could not be configured (then headline routes answer 503).
    let headlines: Result<HeadlineService, HeadlineSetupError>
    /// The web map's base layer, compressed once.
    let basemap: BasemapRoutes
    /// Encoded cluster and tile answers by ETag.
    let answers = AnswerCache()

    var catalogue: Catalogue { resolver.catalogue }
}

/// Why the provider chain could not be set up at start (a broken config.json, say).
struct HeadlineSetupError: Error, Sendable {
    let reason: String
}

import GeoNews
import GeoNewsDatasets
import GeoNewsStore

/// What the routes share: loaded once at start, immutable afterwards (the store serialises
/// its own writes), so one value serves every request without locks.
struct ServerState: Sendable {
    /// Built with ``ResolverOptions/server``: `GET /v1/resolve` takes its single-position
    /// measures, `POST /v1/resolve` passes the batch ones (``ResolutionMeasures/batch``, or
    /// ``ResolutionMeasures/batchWithBorderDistance`` when asked) with its rows.
    let resolver: CountryResolver
    /// The UTC-offset rules of the same data directory as the resolver (`--data`), loaded at
    /// start, so that answers never fall back to the rules of the default data folder.
    let zoneRules: TimeZoneRules
    /// GeoNames' places, for the nearest one that every resolution answers.
    let places: PlaceIndex
    /// The regions' polygons, for the region that every resolution in a country answers.
    let regions: RegionIndex
    /// `regions` with their edges indexed, for `POST /v1/resolve?region=true`.
    private let regionEdges = MadeOnce<RegionIndex>()
    /// Every region decoded once, for `GET /v1/headlines?region=`.
    let regionCatalogue: RegionCatalogue
    /// SQLite in the state directory, or PostgreSQL shared with other instances.
    let store: any ServerStore
    let configuration: ServerConfiguration
    /// The cluster datasets by id: `markers` always, and the uploads.
    let datasets: DatasetRegistry
    /// Uploads of other instances, fetched from the store on first use.
    let sharedDatasets: SharedDatasets
    /// The provider chain, or why it could not be configured (then headline routes answer 503).
    let headlines: Result<HeadlineService, HeadlineSetupError>
    /// The web map's base layer, compressed once.
    let basemap: BasemapRoutes
    /// The one answer cache: encoded cluster and tile answers by ETag, and the two memos below.
    let answers = AnswerCache()
    /// `GET /v1/clusters` answers by query string, for the dataset version they were made from.
    var clusterAnswers: QueryAnswerMemo<String> { QueryAnswerMemo(route: "/v1/clusters", in: answers) }
    /// `GET /v1/resolve` answers by query string, for the half hour they were made in (a
    /// resolution's UTC offset changes only on a whole or half hour).
    var resolveAnswers: QueryAnswerMemo<Int64> { QueryAnswerMemo(route: "/v1/resolve", in: answers) }

    var catalogue: Catalogue { resolver.catalogue }

    /// The regions for a batch's region column: with their edges indexed (``RegionIndex/withEdgeIndex()``),
    /// mapped from `region-edges.bin`, or built there, by the first batch that asks (about 15 ms), so
    /// that a start spends nothing on them; a single position is answered as fast by the plain search.
    var batchRegions: RegionIndex { regionEdges.value { regions.withEdgeIndex() } }
}

/// Why the provider chain could not be set up at start (a broken config.json, say).
struct HeadlineSetupError: Error, Sendable {
    let reason: String
}

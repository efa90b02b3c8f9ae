import GeoNews
import GeoNewsStore

/// What the routes share: loaded once at start, immutable afterwards (the store serialises
/// its own writes), so one value serves every request without locks.
struct ServerState: Sendable {
    let resolver: CountryResolver
    let store: Store
    let configuration: ServerConfiguration

    var catalogue: Catalogue { resolver.catalogue }
}

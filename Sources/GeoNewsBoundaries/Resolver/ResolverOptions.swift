import GeoNewsGeodesy

/// What one call of ``CountryResolver/resolve(_:measuring:)`` works out beyond the containing
/// country, the time zone and the suggestion, which every call answers.
///
/// The answers a call gives do not depend on the resolver's other options: only these two
/// values change what a ``Resolution`` holds.
public struct ResolutionMeasures: Sendable, Hashable {
    /// Whether ``Resolution/borderDistanceKm`` is filled: a best-first search of the grid
    /// around the position, which, far from any edge (Antarctica, inner Russia), visits many
    /// cells.
    public var borderDistance: Bool
    /// How far, in kilometres, a point beyond every territorial sea looks for the nearest
    /// country (``Resolution/nearest``). `.infinity` finds it anywhere on Earth; any value up
    /// to the near-shore distance (25 km) looks only as far as the suggestion needs, so an
    /// open-sea position costs about as much as one on land, and carries no nearest country
    /// beyond that distance. Values below the near-shore distance count as that distance.
    public var seaSearchKm: Double

    public init(borderDistance: Bool, seaSearchKm: Double) {
        self.borderDistance = borderDistance
        self.seaSearchKm = seaSearchKm
    }

    /// One position asked about on its own (`geonews --lat … --lon …`, `GET /v1/resolve`):
    /// the border distance and the nearest country at sea, however far.
    public static let singlePosition = ResolutionMeasures(borderDistance: true, seaSearchKm: .infinity)

    /// A row of a batch (`geonews resolve`, `POST /v1/resolve`): batch rows carry neither the
    /// nearest country at sea nor, unless asked, the border distance, so the sea search stops
    /// where the suggestion stops looking.
    public static let batch = ResolutionMeasures(borderDistance: false, seaSearchKm: 0)

    /// A batch row with its distance to the country's edge (`--border-distance`,
    /// `POST /v1/resolve?borderDistance=true`).
    public static let batchWithBorderDistance = ResolutionMeasures(borderDistance: true, seaSearchKm: 0)
}

/// How a ``CountryResolver`` is built: what its ``CountryResolver/resolve(_:)`` measures by
/// default, and which tables it precomputes once so that many calls run faster.
///
/// The tables never change an answer, only its cost: a resolver with both answers any
/// ``ResolutionMeasures`` byte for byte as one built for those measures alone. So a process
/// that answers both single positions and batches (the server) builds one resolver with
/// ``server`` and passes the measures with each call.
public struct ResolverOptions: Sendable, Hashable {
    /// What ``CountryResolver/resolve(_:)`` measures; ``CountryResolver/resolve(_:measuring:)``
    /// takes other measures per call.
    public var measures: ResolutionMeasures
    /// Whether to precompute, for each 1° cell, the news marker nearest to all of it where one
    /// is (a few milliseconds, once), so that positions outside the news countries skip the
    /// search over every marker. Worth it for more than a few hundred positions.
    ///
    /// Each table is built on a thread of its own, started by the first position that would
    /// use it, while that position and the next ones are answered without it (a table changes
    /// only the cost): a server that is never asked to measure a border never builds that
    /// table, and none of them delays its start.
    public var precomputesMarkerGrid: Bool
    /// Whether to build an ``AreaBorderTable`` (about 80 ms, once), which lets the
    /// border-distance search skip the cells a country wholly holds. Worth it when many
    /// positions will be measured.
    public var buildsBorderTable: Bool
    /// Whether to build a ``CoastGrid`` (about 20 ms, once), which spares most positions at
    /// sea near a coast the nearest-land search. Worth it for more than a few thousand
    /// positions.
    public var buildsCoastGrid: Bool

    public init(measures: ResolutionMeasures, precomputesMarkerGrid: Bool, buildsBorderTable: Bool, buildsCoastGrid: Bool = false) {
        self.measures = measures
        self.precomputesMarkerGrid = precomputesMarkerGrid
        self.buildsBorderTable = buildsBorderTable
        self.buildsCoastGrid = buildsCoastGrid
    }

    /// One position, or a few (`geonews --lat … --lon …`): nothing precomputed, since a cold
    /// start pays for every table it builds.
    public static let singlePosition = ResolverOptions(measures: .singlePosition, precomputesMarkerGrid: false, buildsBorderTable: false)

    /// Many rows without border distances (`geonews resolve`): the marker and coast grids.
    public static let batch = ResolverOptions(
        measures: .batch, precomputesMarkerGrid: true, buildsBorderTable: false, buildsCoastGrid: true)

    /// Many rows with border distances (`geonews resolve --border-distance`): every table.
    public static let batchWithBorderDistance = ResolverOptions(
        measures: .batchWithBorderDistance, precomputesMarkerGrid: true, buildsBorderTable: true, buildsCoastGrid: true)

    /// A long-running process that answers single positions and batches alike: every table,
    /// single-position measures by default, batch measures passed per call.
    public static let server = ResolverOptions(
        measures: .singlePosition, precomputesMarkerGrid: true, buildsBorderTable: true, buildsCoastGrid: true)
}

/// A resolver that answers every call with the same measures: a batch's rows through a
/// resolver built for other work (the server's one resolver, with ``ResolutionMeasures/batch``).
public struct MeasuringResolver: IndexedCountryResolving {
    public let resolver: CountryResolver
    public let measures: ResolutionMeasures

    public func resolve(_ position: Coordinate) -> Resolution {
        resolver.resolve(position, measuring: measures)
    }

    public var catalogue: Catalogue { resolver.catalogue }
    public var zoneIDs: [String] { resolver.zoneIDs }

    public func resolveIndexed(_ positions: UnsafeBufferPointer<Coordinate>, into results: UnsafeMutableBufferPointer<IndexedResolution>) {
        resolver.resolveIndexed(positions, measuring: measures, into: results)
    }
}

extension CountryResolver {
    /// This resolver with `measures` for every call; see ``resolve(_:measuring:)``.
    public func measuring(_ measures: ResolutionMeasures) -> MeasuringResolver {
        MeasuringResolver(resolver: self, measures: measures)
    }
}

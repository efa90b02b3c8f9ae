import GeoNewsGeodesy

extension CountryResolver {
    /// The breadth of the territorial sea: 12 nautical miles (UNCLOS article 3), 22.224 km.
    ///
    /// It is measured from OpenStreetMap's coast (the land of ``LandIndexFormat``), which stands
    /// in for the baseline: the real baseline (low-water line, straight lines across bays and
    /// between islands) lies on or outside the coast, so the limit drawn here falls short of
    /// the legal one where straight baselines run, and nowhere is it farther out (but for the
    /// land's rounding to 2^-16°, under 2 m).
    public static let territorialSeaKm = 22.224

    /// The catalogue index of the country whose land or territorial sea holds `position`, and
    /// the great-circle km from it to OpenStreetMap's land (0 on that land); `nil` beyond every
    /// territorial sea. `region` is the area index's region at the position.
    ///
    /// Without `measuringSea`, the km are `nil` in the territorial sea of a country the region
    /// names, and on its land where the coast grid shows land within that sea's breadth of
    /// the whole cell: that country holds the position whichever land is nearest, so the
    /// search only asks whether any land is within reach. When `reachKm` goes past the territorial sea,
    /// the caller needs the nearest land that far anyway if the position is beyond it, and
    /// the one search to `reachKm` answers both.
    ///
    /// `found` is the position's region and land when a batch already has them.
    ///
    /// A search for the nearest land that reaches `reachKm` (at least ``territorialSeaKm``) is
    /// left in `searched`, so that a caller who needs the nearest land that far anyway does not
    /// search twice: within the territorial sea it finds what a search of that breadth alone
    /// finds, since every search is exact within its bound and visits the cells in one order.
    /// Where the grids show no land within ``nearShoreKm``, `searched` says so without a search.
    ///
    /// - On OpenStreetMap's land: the country of the region there, or, where the zones draw
    ///   none (Baker Island, Clipperton lie in the open ocean's `Etc/GMT±N`), the land's own
    ///   (Natural Earth's country there, see `LandIndexBuilder`).
    /// - At sea within ``territorialSeaKm`` of that land: likewise the region's country, or
    ///   the nearest land's.
    /// - Farther out, none, whatever the region says: the zones reach hundreds of kilometres
    ///   into the sea (America/Lima draws Peru's 200-mile claim, and Pacific/Easter drew a
    ///   box of ocean around Easter Island until 2026e) because time has to be told there
    ///   too, not because the sea is the country's.
    /// - In Antarctica's regions, Antarctica throughout: the Antarctic Treaty freezes every
    ///   claim to waters, and where the ice shelves end (the coast there) moves year by year.
    func holder(
        of position: Coordinate, in region: Int?, measuringSea: Bool = true, reachKm: Double = territorialSeaKm,
        searched: inout CoastSearch?, found: FoundLookups? = nil
    ) -> (country: Int, seaKm: Double?)? {
        let drawn = region.flatMap(areas.country(ofRegion:))
        if region != nil, let drawn, drawn == antarctica { return (drawn, 0) }
        // Land or sea, the region's country holds a position with land certainly within the
        // territorial sea: which of the two it is matters only to the sea's km, so the land's
        // leaf is not read (most of a coastal batch's rows, and the pages they would touch).
        if let drawn, !measuringSea, coastGrid?.certainlyNearLand(position) == true { return (drawn, nil) }
        if let land = land(at: position, found: found) { return (drawn ?? land, 0) }
        guard mayBeNearShore(position, found: found) else {
            searched = CoastSearch(reachKm: nearShoreKm, land: nil)
            return nil
        }
        if let drawn, !measuringSea {
            if reachKm <= Self.territorialSeaKm {
                return index.hasLand(within: Self.territorialSeaKm, of: position) ? (drawn, nil) : nil
            }
        }
        let reach = max(reachKm, Self.territorialSeaKm)
        let found = index.nearestLand(to: position, maxKm: reach)
        searched = CoastSearch(reachKm: reach, land: found)
        guard let coast = found, coast.distanceKm < Self.territorialSeaKm else { return nil }
        // A drawn country holds the position whichever land is nearest: no km without measuring.
        return (drawn ?? coast.countryIndex, drawn != nil && !measuringSea ? nil : coast.distanceKm)
    }

    /// The country of the land that holds `position`, `nil` at sea: from the slot a batch's
    /// descent found when `found` is given.
    @inline(__always)
    func land(at position: Coordinate, found: FoundLookups?) -> Int? {
        guard let found else { return index.countryIndex(at: position) }
        return index.countryIndex(in: found.landSlot, longitude: position.longitude, latitude: found.latitude)
    }

    /// ``holder(of:in:measuringSea:reachKm:searched:)`` with the territorial sea's own search.
    func holder(of position: Coordinate, in region: Int?, measuringSea: Bool = true) -> (country: Int, seaKm: Double?)? {
        var searched: CoastSearch?
        return holder(of: position, in: region, measuringSea: measuringSea, searched: &searched)
    }

    /// Km from a position inside `country` to the nearest edge of its area: the region's own
    /// edge, or, at sea, the 12-mile limit when that is nearer (estimated as the breadth left
    /// beyond the nearest land). Where no region of the country holds the position (land the
    /// zones leave to the open ocean), the limit's estimate alone: ``territorialSeaKm`` on land.
    func borderDistanceKm(at position: Coordinate, country: Int, region: Int?, seaKm: Double) -> Double {
        let limit = Self.territorialSeaKm - seaKm
        guard let region, areas.country(ofRegion: region) == country else { return limit }
        let edge = areas.borderDistanceKm(at: position, country: country, table: borderTable)
        return seaKm > 0 ? min(edge, limit) : edge
    }
}

/// A nearest-land search already run for a position: how far it reached, and the land it found.
struct CoastSearch {
    let reachKm: Double
    let land: (countryIndex: Int, distanceKm: Double)?
}

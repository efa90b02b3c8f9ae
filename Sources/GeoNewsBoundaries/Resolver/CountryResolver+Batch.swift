import CMemoryHints
import GeoNewsGeodesy

extension CountryResolver {
    /// How many rows of a batch have their descents fetched together: enough waits to overlap,
    /// few enough that the slots fetched for the first row are still cached when it is resolved.
    static let batchBlock = 32

    /// Resolves every position with `measures` and writes the answers in order to `results`
    /// (its first `positions.count` elements, overwritten; it traps when shorter): each is exactly
    /// ``resolveIndexed(_:measuring:)``'s.
    ///
    /// A lookup's cost is mostly waiting for memory: the root slot, each node and the leaf of
    /// two trees (the regions and the land), a cache miss each for a random row.
    /// Here the rows go in blocks of ``batchBlock``: the descents of a block are walked one
    /// level at a time across all its rows, asking the caches for each row's next slot before
    /// reading any, so that the rows' misses overlap; then each row is resolved as alone, from
    /// slots already in the cache, and last the block's distances to news markers are measured
    /// together.
    public func resolveIndexed(
        _ positions: UnsafeBufferPointer<Coordinate>, measuring measures: ResolutionMeasures,
        into results: UnsafeMutableBufferPointer<IndexedResolution>
    ) {
        precondition(results.count >= positions.count, "room for \(results.count) answers, not \(positions.count)")
        guard let results = results.baseAddress else { return }
        withUnsafeTemporaryAllocation(of: PendingDescent.self, capacity: Self.batchBlock) { descents in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.batchBlock) { marked in
                var start = 0
                while start < positions.count {
                    let end = min(start + Self.batchBlock, positions.count)
                    fetchDescents(UnsafeBufferPointer(rebasing: positions[start..<end]), into: descents)
                    var atSea = 0
                    for i in start..<end {
                        let answer = resolveIndexed(
                            positions[i], measuring: measures, leavingMarkerDistance: (),
                            found: found(positions[i], descents[i - start]))
                        if answer.reason == .nearestMarker {
                            marked[atSea] = i
                            atSea += 1
                        }
                        (results + i).initialize(to: answer)
                    }
                    measureMarkerDistances(results, at: UnsafeBufferPointer(rebasing: marked[..<atSea]))
                    start = end
                }
            }
        }
    }

    /// The time zone of every position, written in order to `zones` (its first
    /// `positions.count` elements; it traps when shorter): ``IndexedResolution/zone`` exactly as
    /// ``resolveIndexed(_:measuring:into:)`` answers it (an index into ``zoneIDs``, or below 0
    /// the open ocean's nautical zone). The zone is the region's alone, so only the regions'
    /// tree is walked, in the same blocks: no land, coast or news marker is read. The positions
    /// are valid ones, as for the batch (``/GeoNewsGeodesy/Coordinate/validated(latitude:longitude:)``).
    public func zonesIndexed(_ positions: UnsafeBufferPointer<Coordinate>, into zones: UnsafeMutableBufferPointer<Int32>) {
        precondition(zones.count >= positions.count, "room for \(zones.count) zones, not \(positions.count)")
        let e = CountryIndex.edgeNudge
        withUnsafeTemporaryAllocation(of: PendingDescent.self, capacity: Self.batchBlock) { descents in
            var start = 0
            while start < positions.count {
                let end = min(start + Self.batchBlock, positions.count)
                fetchDescents(UnsafeBufferPointer(rebasing: positions[start..<end]), into: descents, land: false)
                for i in start..<end {
                    let p = positions[i], d = descents[i - start]
                    let region =
                        d.ended
                        ? areas.region(
                            in: CellSlot(d.areaEnd), longitude: p.longitude, latitude: min(max(p.latitude, -90 + e), 90 - e), gx: d.gx,
                            gy: d.gy)
                        : areas.region(at: p)
                    zones[i] = region.map { Int32(areas.zone(ofRegion: $0)) } ?? IndexedResolution.nauticalZone(longitude: p.longitude)
                }
                start = end
            }
        }
    }

    /// What a row's fetched descents found: its region, and the land's slot to read when the
    /// answer needs it, from the slots they ended at, without walking the trees again; `nil`
    /// for a row they skipped.
    @inline(__always)
    private func found(_ p: Coordinate, _ d: PendingDescent) -> FoundLookups? {
        guard d.ended else { return nil }
        let e = CountryIndex.edgeNudge
        let lat = min(max(p.latitude, -90 + e), 90 - e)
        return FoundLookups(
            region: areas.region(in: CellSlot(d.areaEnd), longitude: p.longitude, latitude: lat, gx: d.gx, gy: d.gy),
            landSlot: CellSlot(d.landEnd), latitude: lat, rootMayBeNearShore: CellSlot(d.landRoot).mayBeNearShore)
    }

    /// Asks the caches for every slot that the lookups of `positions` in ``areas`` and
    /// ``index`` will read, level by level across the rows. Reads only slots already asked for
    /// one level earlier, and changes nothing: an answer does not depend on it.
    /// With `land` false, only the regions' tree (a row's `land` stays `nil`).
    private func fetchDescents(
        _ positions: UnsafeBufferPointer<Coordinate>, into d: UnsafeMutableBufferPointer<PendingDescent>, land: Bool = true
    ) {
        // Every slot of `d` that this block uses is written before it is read.
        typealias F = CountryIndexFormat
        let e = CountryIndex.edgeNudge
        for (i, p) in positions.enumerated() {
            let lat = min(max(p.latitude, -90 + e), 90 - e), lon = p.longitude
            // The antimeridian's two lookups and NaN are left to the lookup itself.
            guard lon > -180 + e && lon < 180 - e, lat == lat else {
                d[i] = PendingDescent()
                continue
            }
            let gx = CountryIndex.latticeIndex(lon, origin: 180, count: F.rootColumns)
            let gy = CountryIndex.latticeIndex(lat, origin: 90, count: F.rootRows)
            let r = CellTreeWalk.rootIndex(gx: gx, gy: gy)
            d[i] = PendingDescent(
                gx: gx, gy: gy, area: areas.root.baseAddress! + r, areaShift: F.finestDepth,
                land: land ? index.root.baseAddress! + r : nil, landShift: F.finestDepth, ended: true)
            geonews_prefetch(d[i].area)
            guard land else { continue }
            geonews_prefetch(d[i].land)
            // The marker grid has the root grid's cells: a row at sea reads its entry.
            if let grid = markerGrid?.finished, let c = MarkerGrid.cells(of: p) {
                d[i].markerCells = c
                geonews_prefetch(grid.baseAddress! + c.root)
            }
        }
        defer {
            // By now the root cells are in: a row in a cell near a tie asks for its finer cell.
            if let grid = markerGrid?.finished {
                for i in 0..<positions.count {
                    if let c = d[i].markerCells, grid.load(fromByteOffset: c.root, as: Int8.self) < 0 {
                        geonews_prefetch(grid.baseAddress! + c.finer)
                    }
                }
            }
        }
        var walking = true
        while walking {
            walking = false
            for i in 0..<positions.count {
                if let slot = d[i].area {
                    d[i].areaEnd = slot.pointee
                    d[i].area = step(
                        CellSlot(d[i].areaEnd), shift: &d[i].areaShift, gx: d[i].gx, gy: d[i].gy, nodes: areas.nodes,
                        leaves: UnsafeRawBufferPointer(areas.leaves), leafWordSize: MemoryLayout<UInt16>.size)
                    walking = walking || d[i].area != nil
                }
                if let slot = d[i].land {
                    d[i].landEnd = slot.pointee
                    if d[i].landShift == F.finestDepth {
                        d[i].landRoot = d[i].landEnd
                        // Only a row whose root cell may be near the shore reads the coast grid.
                        if CellSlot(d[i].landRoot).mayBeNearShore, let lines = coastGrid?.addresses(of: positions[i]) {
                            geonews_prefetch(lines.bits)
                            // The edge cells of the rows within 25 km, three either side.
                            geonews_prefetch(lines.edgeCells - 24)
                            geonews_prefetch(lines.edgeCells + 24)
                        }
                    }
                    d[i].land = step(
                        CellSlot(d[i].landEnd), shift: &d[i].landShift, gx: d[i].gx, gy: d[i].gy, nodes: index.nodes,
                        leaves: index.leaves, leafWordSize: index.leafWordSize)
                    walking = walking || d[i].land != nil
                }
            }
        }
    }

    /// One level of a fetched descent: for a node, asks for the child's slot and returns it,
    /// to be read next; for a leaf, asks for its first two cache lines (header and first
    /// vertices) and returns `nil`, as for a whole cell.
    @inline(__always)
    private func step(
        _ slot: CellSlot, shift: inout Int, gx: Int, gy: Int, nodes: UnsafeBufferPointer<UInt32>, leaves: UnsafeRawBufferPointer,
        leafWordSize: Int
    ) -> UnsafePointer<UInt32>? {
        switch slot.kind {
        case .node:
            let child = nodes.baseAddress! + CellTreeWalk.child(of: slot, below: &shift, gx: gx, gy: gy)
            geonews_prefetch(child)
            return child
        case .leaf:
            // An address to prefetch, never read here: a leaf the layout check placed in the section.
            guard let section = leaves.baseAddress else { return nil }
            let header = section + slot.payload &* leafWordSize
            geonews_prefetch(header)
            geonews_prefetch(header + 64)
            return nil
        default:
            return nil
        }
    }
}

/// One row's descents in a batch's fetch: its lattice cell and, per tree, the slot to read
/// next (`nil` once the walk reached a leaf or a whole cell) and the last slot read (the finest
/// over the cell once the walk is done). A row the fetch leaves to the lookups has `ended`
/// false.
private struct PendingDescent {
    var gx = 0, gy = 0
    var area: UnsafePointer<UInt32>? = nil
    var areaShift = 0
    var land: UnsafePointer<UInt32>? = nil
    var landShift = 0
    var ended = false
    var areaEnd: UInt32 = 0
    var landEnd: UInt32 = 0
    /// The land tree's root slot, whose flag says whether land may be near the root cell.
    var landRoot: UInt32 = 0
    /// The marker grid's cells over the row, when the grid is built.
    var markerCells: (root: Int, finer: Int)? = nil
}

/// A position's region in ``CountryResolver/areas`` and country in ``CountryResolver/index``,
/// when a batch already has them.
struct FoundLookups {
    let region: Int?
    /// The land index's slot that holds the position, and its latitude nudged off the poles as
    /// the lookup nudges it: read by ``CountryResolver/land(at:found:)`` only when the answer
    /// depends on it, so that a row the coast grid settles never reads its leaf.
    let landSlot: CellSlot
    let latitude: Double
    /// ``CountryIndex/mayBeNearShore(longitude:latitude:)`` at the position: its root slot's
    /// flag.
    let rootMayBeNearShore: Bool
}

import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CountryIndex {
    /// The country whose land lies nearest to a position, and the great-circle distance to it
    /// in kilometres; `nil` when no land lies within `maxKm`.
    ///
    /// Searches the grid best-first by an exact lower bound (the distance to a cell's
    /// rectangle on the sphere), so a point far out at sea visits few cells. Within a border
    /// leaf the nearest point of each edge is found in a local equirectangular frame centred on
    /// the position and then measured on the great circle; for edges within a few hundred
    /// kilometres this is within 0.1 % of the true distance to the edge.
    public func nearestLand(to p: Coordinate, maxKm: Double = .infinity) -> (countryIndex: Int, distanceKm: Double)? {
        // Widening windows: most points at sea have land within a few hundred kilometres, and a
        // bounded search only looks at the cells its window holds. Each pass is exact within
        // its bound, so the first pass that finds land has found the nearest.
        for bound in [250.0, 1000, 4000] where bound < maxKm {
            if let hit = nearestLand(to: p, within: bound) { return hit }
        }
        return nearestLand(to: p, within: maxKm)
    }

    /// Whether any land lies within `maxKm` of a position: exactly when
    /// ``nearestLand(to:maxKm:)`` finds some, but the search stops at the first land in reach
    /// instead of proving which is nearest.
    func hasLand(within maxKm: Double, of p: Coordinate) -> Bool {
        nearestLand(to: p, within: maxKm, stopsAtFirst: true) != nil
    }

    private func nearestLand(to p: Coordinate, within maxKm: Double, stopsAtFirst: Bool = false) -> (countryIndex: Int, distanceKm: Double)?
    {
        var best = maxKm
        var bestCountry = -1
        let window = SearchWindow(around: p, radiusKm: maxKm)
        let rows = window.rows, columns = window.columns
        let centre = SearchCentre(p)
        // The root cells in reach, on the stack for the narrow windows of almost every search.
        return withUnsafeTemporaryAllocation(
            of: (bound: Double, slot: UInt32, x0: Double, y0: Double).self, capacity: rows.count * columns.range.count
        ) { candidates in
            var count = 0
            for row in rows {
                for col in columns {
                    let slot = root[row * CountryIndexFormat.rootColumns + col]
                    if CellSlot(slot).kind == .sea { continue }
                    let x0 = Double(col - 180), y0 = Double(row - 90)
                    guard window.mayReach(west: x0, south: y0, east: x0 + 1, north: y0 + 1) else { continue }
                    let bound = Self.distanceToRectangle(centre, west: x0, south: y0, east: x0 + 1, north: y0 + 1)
                    if bound < best {
                        candidates.initializeElement(at: count, to: (bound, slot, x0, y0))
                        count += 1
                    }
                }
            }
            var found = UnsafeMutableBufferPointer(rebasing: candidates[..<count])
            found.sort { $0.bound < $1.bound }
            for c in found {
                if c.bound >= best || stopsAtFirst && bestCountry >= 0 { break }
                visit(
                    slot: c.slot, x0: c.x0, y0: c.y0, size: 1, bound: c.bound, p: centre, window: window, best: &best,
                    bestCountry: &bestCountry)
            }
            return bestCountry < 0 ? nil : (bestCountry, best)
        }
    }

    private func visit(
        slot: UInt32, x0: Double, y0: Double, size: Double, bound: Double, p: SearchCentre,
        window: SearchWindow, best: inout Double, bestCountry: inout Int
    ) {
        guard bound < best else { return }
        let cell = CellSlot(slot)
        switch cell.kind {
        case .sea:
            return
        case .country:
            // Wholly one country: the rectangle's distance is exact.
            best = bound
            bestCountry = cell.payload
        case .node:
            let k = cell.fanOutBits
            let block = MergedBlock(base: cell.childBase, side: 1 << k, column: 0, row: 0, span: 1 << k)
            visit(block, x0: x0, y0: y0, size: size, bound: bound, p: p, window: window, best: &best, bestCountry: &bestCountry)
        case .leaf:
            let leaf = Leaf(leaves, offset: cell.payload, compact: compactLeaves)
            var g = leaf.first
            for _ in 0..<leaf.groupCount {
                let group = leaf.group(at: g)
                g = group.next
                if groupContains(group, x: p.position.longitude, y: p.position.latitude) {
                    best = 0
                    bestCountry = group.country
                    return
                }
                let d = distanceToEdges(of: group, p)
                if d < best {
                    best = d
                    bestCountry = group.country
                }
            }
        }
    }

    /// A square block of a merged node's children: `span` × `span` of them from (`column`,
    /// `row`), in a node `side` children wide whose first slot is `nodes[base]`.
    private struct MergedBlock {
        let base: Int, side: Int, column: Int, row: Int, span: Int

        func slot(_ index: CountryIndex, _ c: Int, _ r: Int) -> UInt32 { index.nodes[base + (row + r) * side + column + c] }

        func quadrant(_ q: Int) -> MergedBlock {
            MergedBlock(base: base, side: side, column: column + (q & 1) * span / 2, row: row + (q >> 1) * span / 2, span: span / 2)
        }
    }

    /// Visits a merged node's children as the quadtree they were merged from: the block's
    /// quadrants nearest first, so bounds are computed for four rectangles a level rather than
    /// for every child, and a slot repeated over a whole block (a coarser leaf, country or sea)
    /// is visited once.
    private func visit(
        _ block: MergedBlock, x0: Double, y0: Double, size: Double, bound: Double, p: SearchCentre,
        window: SearchWindow, best: inout Double, bestCountry: inout Int
    ) {
        guard bound < best else { return }
        let first = block.slot(self, 0, 0)
        var uniform = true
        check: for r in 0..<block.span {
            for c in 0..<block.span where block.slot(self, c, r) != first {
                uniform = false
                break check
            }
        }
        if uniform {
            visit(slot: first, x0: x0, y0: y0, size: size, bound: bound, p: p, window: window, best: &best, bestCountry: &bestCountry)
            return
        }
        let half = size / 2
        var bounds = (Double.infinity, Double.infinity, Double.infinity, Double.infinity)
        withUnsafeMutableBytes(of: &bounds) { raw in
            let b = raw.bindMemory(to: Double.self)
            for q in 0..<4 {
                let cx = x0 + (q & 1 == 1 ? half : 0), cy = y0 + (q & 2 == 2 ? half : 0)
                guard window.mayReach(west: cx, south: cy, east: cx + half, north: cy + half) else { continue }
                b[q] = Self.distanceToRectangle(p, west: cx, south: cy, east: cx + half, north: cy + half)
            }
        }
        for _ in 0..<4 {
            var q = -1
            var d = Double.infinity
            withUnsafeBytes(of: &bounds) { raw in
                let b = raw.bindMemory(to: Double.self)
                for i in 0..<4 where b[i] < d { d = b[i]; q = i }
            }
            guard q >= 0, d < best else { return }
            withUnsafeMutableBytes(of: &bounds) { $0.bindMemory(to: Double.self)[q] = .infinity }
            let cx = x0 + (q & 1 == 1 ? half : 0), cy = y0 + (q & 2 == 2 ? half : 0)
            visit(block.quadrant(q), x0: cx, y0: cy, size: half, bound: d, p: p, window: window, best: &best, bestCountry: &bestCountry)
        }
    }

    /// Great-circle km from `centre` to the nearest point on any edge of a group's rings.
    private func distanceToEdges(of group: LeafGroup, _ centre: SearchCentre) -> Double {
        let p = centre.position
        let kx = centre.cosLatitude
        var bestSq = Double.infinity
        var bestX = 0.0, bestY = 0.0
        @inline(__always) func local(_ lon: Double) -> Double {
            var d = lon - p.longitude
            if d > 180 { d -= 360 } else if d < -180 { d += 360 }
            return d * kx
        }
        for r in 0..<group.ringCount {
            let ring = group.ring(r)
            guard !ring.isEmpty else { continue }
            let a = group.vertex(ring.lowerBound)
            var ax = local(a.x), ay = a.y - p.latitude
            for k in (ring.lowerBound + 1)..<ring.upperBound {
                let b = group.vertex(k)
                let bx = local(b.x), by = b.y - p.latitude
                let dx = bx - ax, dy = by - ay
                let len2 = dx * dx + dy * dy
                var t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0
                t = min(1, max(0, t))
                let qx = ax + t * dx, qy = ay + t * dy
                let d2 = qx * qx + qy * qy
                if d2 < bestSq {
                    bestSq = d2
                    bestX = qx
                    bestY = qy
                }
                ax = bx
                ay = by
            }
        }
        guard bestSq.isFinite else { return .infinity }
        let lon = kx > 1e-12 ? GreatCircle.normalizedLongitude(p.longitude + bestX / kx) : p.longitude
        let nearest = Coordinate(latitude: p.latitude + bestY, longitude: lon)
        return GreatCircle.distance(from: p, to: nearest, cosinesOfLatitude: kx, cos(nearest.latitude * .pi / 180))
    }

    /// Exact great-circle km from `p` to a longitude–latitude rectangle (0 inside it).
    ///
    /// When `p`'s longitude falls within the rectangle's, the nearest point is straight north
    /// or south; otherwise it lies on the nearer bounding meridian (the distance to a point of
    /// a parallel grows with the longitude difference), at the foot of the perpendicular
    /// clamped to the rectangle's latitudes.
    static func distanceToRectangle(_ p: Coordinate, west: Double, south: Double, east: Double, north: Double) -> Double {
        distanceToRectangle(SearchCentre(p), west: west, south: south, east: east, north: north)
    }

    /// ``distanceToRectangle(_:west:south:east:north:)`` from a search's centre.
    static func distanceToRectangle(_ centre: SearchCentre, west: Double, south: Double, east: Double, north: Double) -> Double {
        let p = centre.position
        let earthRadiusKm = GreatCircle.meanEarthRadiusKm
        var dw = p.longitude - west
        dw = dw - 360 * (dw / 360).rounded(.down)  // 0..<360 east of the west edge
        if dw <= east - west {
            if p.latitude < south { return (south - p.latitude) * .pi / 180 * earthRadiusKm }
            if p.latitude > north { return (p.latitude - north) * .pi / 180 * earthRadiusKm }
            return 0
        }
        // Away from the poles, and within 90° of longitude, every point of the nearer meridian's
        // arc is nearer than the point of the other's at its latitude (the haversine grows with
        // the longitude difference while both cosines are positive), so only that arc is
        // measured. The limits keep the gap between the two far above rounding, so the answer
        // is the minimum of both, bit for bit.
        let de = dw - (east - west)
        let toWest = min(dw, 360 - dw), toEast = min(de, 360 - de)
        if max(abs(p.latitude), abs(south), abs(north)) <= nearerMeridianLatitudeLimit, max(toWest, toEast) <= 90,
            abs(toWest - toEast) >= nearerMeridianMinimumGap
        {
            return distanceToMeridianArc(centre, longitude: toWest < toEast ? west : east, south: south, north: north)
        }
        return min(
            distanceToMeridianArc(centre, longitude: west, south: south, north: north),
            distanceToMeridianArc(centre, longitude: east, south: south, north: north))
    }

    /// Degrees of latitude within which ``distanceToRectangle(_:west:south:east:north:)``
    /// measures only the nearer meridian: both cosines at least 0.087.
    private static let nearerMeridianLatitudeLimit = 85.0
    /// The least difference, in degrees, between the longitude gaps to the two meridians for
    /// measuring only the nearer one (1/64°: the rectangles of the index's upper levels).
    private static let nearerMeridianMinimumGap = 1.0 / 64

    private static func distanceToMeridianArc(_ centre: SearchCentre, longitude: Double, south: Double, north: Double) -> Double {
        let p = centre.position
        let dλ = (p.longitude - longitude) * .pi / 180
        let c = cos(dλ)
        var foot: Double
        if c > 1e-12 {
            foot = atan(centre.tanLatitude / c) * 180 / .pi
        } else {
            // 90° or more away in longitude: the nearest point of the meridian is a pole.
            foot = p.latitude >= 0 ? 90 : -90
        }
        foot = min(north, max(south, foot))
        return GreatCircle.distance(
            from: p, to: Coordinate(latitude: foot, longitude: longitude), cosinesOfLatitude: centre.cosLatitude,
            cos(foot * .pi / 180))
    }
}

/// A search's centre, with the trigonometry of its latitude that every bound and edge of the
/// search uses, computed once: the same values, bit for bit, as computed at each use.
struct SearchCentre {
    let position: Coordinate
    /// cos(latitude · π / 180) and tan(latitude · π / 180).
    let cosLatitude: Double
    let tanLatitude: Double

    init(_ p: Coordinate) {
        position = p
        let φ = p.latitude * .pi / 180
        cosLatitude = cos(φ)
        tanLatitude = tan(φ)
    }
}

/// The longitude–latitude box that holds every point within a great-circle radius of a
/// centre: rows by the latitude difference (never more than the distance), columns by
/// sin(d/2R) ≥ cos φ · sin(Δλ/2) from the haversine formula, all columns near a pole.
struct SearchWindow {
    let south: Double, north: Double
    /// Longitude half-width in degrees; `nil` when every longitude is in reach.
    let halfWidth: Double?
    let centreLongitude: Double

    init(around p: Coordinate, radiusKm: Double) {
        let earthRadiusKm = GreatCircle.meanEarthRadiusKm
        centreLongitude = p.longitude >= 180 ? -180 : p.longitude
        guard radiusKm.isFinite else {
            south = -90; north = 90; halfWidth = nil
            return
        }
        let dLat = radiusKm / earthRadiusKm * 180 / .pi + 1e-9
        south = max(-90, p.latitude - dLat)
        north = min(90, p.latitude + dLat)
        let poleward = max(abs(south), abs(north))
        let s = sin(min(.pi / 2, radiusKm / (2 * earthRadiusKm))) / cos(poleward * .pi / 180)
        halfWidth = poleward >= 90 || s >= 1 ? nil : 2 * asin(s) * 180 / .pi + 1e-9
    }

    var rows: ClosedRange<Int> {
        let r0 = max(0, Int(south.rounded(.down)) + 90)
        let r1 = min(CountryIndexFormat.rootRows - 1, Int(north.rounded(.down)) + 90)
        return r0...max(r0, r1)
    }

    /// Root columns in reach, wrapped across the antimeridian.
    var columns: WrappedColumns {
        guard let halfWidth, halfWidth < 179 else { return WrappedColumns(range: 0...(CountryIndexFormat.rootColumns - 1)) }
        let c0 = Int((centreLongitude - halfWidth).rounded(.down)) + 180
        let c1 = Int((centreLongitude + halfWidth).rounded(.down)) + 180
        return WrappedColumns(range: c0...c1)
    }

    /// Column numbers of a range that may run past either end, wrapped into 0..<360, without
    /// allocating: a search makes one for each window.
    struct WrappedColumns: Sequence {
        let range: ClosedRange<Int>

        func makeIterator() -> LazyMapSequence<ClosedRange<Int>, Int>.Iterator {
            range.lazy.map { (($0 % 360) + 360) % 360 }.makeIterator()
        }
    }

    /// False when the rectangle lies wholly outside the window (so it is out of reach).
    func mayReach(west: Double, south s: Double, east: Double, north n: Double) -> Bool {
        guard n >= south && s <= north else { return false }
        guard let halfWidth, halfWidth < 179 else { return true }
        // Longitude gap from the centre to the rectangle, across the antimeridian if shorter.
        var dw = centreLongitude - east, de = west - centreLongitude
        dw = dw - 360 * (dw / 360).rounded(.down)
        de = de - 360 * (de / 360).rounded(.down)
        if centreLongitude >= west && centreLongitude <= east { return true }
        return min(dw, de) <= halfWidth
    }
}

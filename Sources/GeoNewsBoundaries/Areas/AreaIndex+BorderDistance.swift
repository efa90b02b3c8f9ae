#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoNewsGeodesy

extension AreaIndex {
    /// Great-circle kilometres from a position inside `country` to the nearest edge of that
    /// country's area: the nearest point that is not the country's (another country, the open
    /// ocean), found on the leaves' country edges or as the nearest point of a cell wholly
    /// outside the country.
    ///
    /// Searches the grid best-first by an exact lower bound (the distance to a cell's rectangle
    /// on the sphere) in widening windows, as ``CountryIndex/nearestLand(to:maxKm:)`` does; the
    /// nearest point of an edge is found in a local equirectangular frame centred on the
    /// position and then measured on the great circle (within 0.1 % for edges within a few
    /// hundred kilometres). `.infinity` only for a country that has no edge on Earth.
    ///
    /// - Parameter table: this index's ``AreaBorderTable``, which lets the search skip cells
    ///   the country wholly holds (the same answer, in a fraction of the time in a large
    ///   country); without it such cells are searched.
    public func borderDistanceKm(at p: Coordinate, country: Int, table: AreaBorderTable? = nil) -> Double {
        for bound in [50.0, 250, 1000, 4000] {
            let d = borderDistance(p, country: country, within: bound, table: table)
            if d < bound { return d }
        }
        return borderDistance(p, country: country, within: .infinity, table: table)
    }

    private func borderDistance(_ p: Coordinate, country: Int, within maxKm: Double, table: AreaBorderTable?) -> Double {
        var best = BorderSearch(p, maxKm: maxKm, country: country, table: table)
        let window = best.window
        // Cells in order of a cheap lower bound; each cell's exact distance is measured only
        // when the search reaches it, and the search ends when the bound reaches the best.
        var candidates: [(lower: Double, slot: UInt32, x0: Double, y0: Double)] = []
        for row in window.rows {
            for col in window.columns {
                let x0 = Double(col - 180), y0 = Double(row - 90)
                let slot = root[row * CountryIndexFormat.rootColumns + col]
                guard !best.isWhollyCountry(root: row * CountryIndexFormat.rootColumns + col) && !isWhollyCountry(slot, country),
                      window.mayReach(west: x0, south: y0, east: x0 + 1, north: y0 + 1) else { continue }
                let lower = best.lowerHaversine(west: x0, south: y0, east: x0 + 1, north: y0 + 1)
                if best.mayBeNearer(lower) { candidates.append((lower, slot, x0, y0)) }
            }
        }
        candidates.sort { $0.lower < $1.lower }
        for c in candidates {
            guard best.mayBeNearer(c.lower) else { break }
            let bound = CountryIndex.distanceToRectangle(p, west: c.x0, south: c.y0, east: c.x0 + 1, north: c.y0 + 1)
            visit(c.slot, x0: c.x0, y0: c.y0, size: 1, bound: bound, p: p, country: country, best: &best)
        }
        return best.km
    }

    private func visit(_ slot: UInt32, x0: Double, y0: Double, size: Double, bound: Double, p: Coordinate, country: Int,
                       best: inout BorderSearch) {
        typealias F = CountryIndexFormat
        guard bound < best.km else { return }
        switch slot >> F.kindShift {
        case F.Kind.sea.rawValue:
            best.offer(bound)
        case F.Kind.country.rawValue:
            // A whole cell of another country: its nearest point is not the country's, and
            // no point of the cell is nearer.
            if self.country(ofRegion: Int(slot & F.payloadMask)) != country { best.offer(bound) }
        case F.Kind.node.rawValue:
            let k = Int(slot >> F.fanOutShift & 3) + 1, side = 1 << k
            let child = size / Double(side), base = Int(slot & F.nodeIndexMask)
            var children: [(lower: Double, index: Int)] = []
            children.reserveCapacity(side * side)
            for i in 0..<(side * side) {
                let cx = x0 + Double(i % side) * child, cy = y0 + Double(i / side) * child
                guard !best.isWhollyCountry(node: base + i) && !isWhollyCountry(nodes[base + i], country),
                      best.window.mayReach(west: cx, south: cy, east: cx + child, north: cy + child) else { continue }
                let lower = best.lowerHaversine(west: cx, south: cy, east: cx + child, north: cy + child)
                if best.mayBeNearer(lower) { children.append((lower, i)) }
            }
            children.sort { $0.lower < $1.lower }
            for c in children {
                guard best.mayBeNearer(c.lower) else { break }
                let cx = x0 + Double(c.index % side) * child, cy = y0 + Double(c.index / side) * child
                let d = CountryIndex.distanceToRectangle(p, west: cx, south: cy, east: cx + child, north: cy + child)
                visit(nodes[base + c.index], x0: cx, y0: cy, size: child, bound: d, p: p, country: country, best: &best)
            }
        default:
            var g = leaves.baseAddress! + Int(slot & F.payloadMask)
            let groups = Int(g.pointee & AreaIndexFormat.groupCountMask)
            // The leaf's own cell, which holds this one when the leaf was repeated into a merged node.
            let cell = AreaLeafCell(depth: Int(g.pointee >> AreaIndexFormat.depthShift), holding: x0, y: y0)
            g += 1
            var holdsCountry = false
            for _ in 0..<groups {
                let group = AreaLeafGroup(g)
                g = group.next
                guard self.country(ofRegion: group.region) == country else { continue }
                holdsCountry = true
                best.offer(Self.distanceToCountryEdges(of: group, p, cell: cell, cosLatitude: best.cosLatitude))
            }
            // None of the country here: the whole cell is outside it.
            if !holdsCountry { best.offer(bound) }
        }
    }

    /// A cell wholly inside `country` holds none of its edges: the search need not measure it.
    @inline(__always)
    private func isWhollyCountry(_ slot: UInt32, _ country: Int) -> Bool {
        typealias F = CountryIndexFormat
        return slot >> F.kindShift == F.Kind.country.rawValue && self.country(ofRegion: Int(slot & F.payloadMask)) == country
    }

    /// Great-circle km from `p` to the nearest point of a group's country edges.
    private static func distanceToCountryEdges(of group: AreaLeafGroup, _ p: Coordinate, cell: AreaLeafCell,
                                               cosLatitude kx: Double) -> Double {
        let unit = 1 / cell.scale, mask = AreaIndexFormat.coordinateMask
        var dx0 = cell.x0 - p.longitude
        if dx0 > 180 { dx0 -= 360 } else if dx0 < -180 { dx0 += 360 }
        let dy0 = cell.y0 - p.latitude
        let v = group.vertices
        var bestSq = Double.infinity, bestX = 0.0, bestY = 0.0
        var k = 0
        while k + 1 < group.vertexCount {
            let xa = v[2 * k]
            if xa & AreaIndexFormat.countryEdgeBit != 0 {
                let ax = (dx0 + Double(xa & mask) * unit) * kx, ay = dy0 + Double(v[2 * k + 1]) * unit
                let bx = (dx0 + Double(v[2 * k + 2] & mask) * unit) * kx, by = dy0 + Double(v[2 * k + 3]) * unit
                let ex = bx - ax, ey = by - ay
                let len2 = ex * ex + ey * ey
                let t = len2 > 0 ? min(1, max(0, -(ax * ex + ay * ey) / len2)) : 0
                let qx = ax + t * ex, qy = ay + t * ey
                let d2 = qx * qx + qy * qy
                if d2 < bestSq { bestSq = d2; bestX = qx; bestY = qy }
            }
            k += 1
        }
        guard bestSq.isFinite else { return .infinity }
        let lon = kx > 1e-12 ? GreatCircle.normalizedLongitude(p.longitude + bestX / kx) : p.longitude
        return GreatCircle.distance(from: p, to: Coordinate(latitude: min(90, max(-90, p.latitude + bestY)), longitude: lon))
    }
}

/// The nearest border found so far in a search, and the longitude–latitude window that holds
/// every point nearer than it: the window shrinks as the search finds nearer edges, so cells
/// beyond the best distance are skipped before their distance is measured.
private struct BorderSearch {
    let p: Coordinate
    let country: Int16
    let table: AreaBorderTable?
    private(set) var km: Double
    private(set) var window: SearchWindow
    private var windowKm: Double
    /// cos of the position's latitude, and the haversine of the best distance's angle.
    let cosLatitude: Double
    private var haversineOfBest: Double

    init(_ p: Coordinate, maxKm: Double, country: Int, table: AreaBorderTable?) {
        self.p = p
        self.country = Int16(truncatingIfNeeded: country)
        self.table = table
        km = maxKm
        windowKm = maxKm
        window = SearchWindow(around: p, radiusKm: maxKm)
        cosLatitude = cos(p.latitude * .pi / 180)
        haversineOfBest = Self.haversine(maxKm / GreatCircle.meanEarthRadiusKm)
    }

    @inline(__always) func isWhollyCountry(root i: Int) -> Bool { table?.root[i] == country }
    @inline(__always) func isWhollyCountry(node i: Int) -> Bool { table?.nodes[i] == country }

    private static func haversine(_ angle: Double) -> Double {
        guard angle < .pi else { return 1 }
        let s = sin(angle / 2)
        return s * s
    }

    /// A lower bound of hav(d/R) for the distance d from the position to the nearest point of
    /// the rectangle, without trigonometry: the haversine formula
    /// hav(d) = hav(Δφ) + cos φ₁ cos φ₂ hav(Δλ) with lower bounds of each term
    /// (sin y ≥ y − y³/6 for 0 ≤ y ≤ π/2, cos x ≥ 1 − x²/2).
    @inline(__always)
    func lowerHaversine(west: Double, south: Double, east: Double, north: Double) -> Double {
        var dw = p.longitude - west
        dw -= 360 * (dw / 360).rounded(.down)
        let width = east - west
        let gapLongitude = dw <= width ? 0 : min(dw - width, 360 - dw) * .pi / 180
        let gapLatitude = (p.latitude < south ? south - p.latitude : p.latitude > north ? p.latitude - north : 0) * .pi / 180
        let farthest = max(abs(south), abs(north)) * .pi / 180
        let cosFarthest = max(0, 1 - farthest * farthest / 2)
        func lowerHaversine(_ x: Double) -> Double {
            let y = x / 2
            let s = y - y * y * y / 6
            return s * s
        }
        return lowerHaversine(gapLatitude) + cosLatitude * cosFarthest * lowerHaversine(gapLongitude)
    }

    /// False when a rectangle with this ``lowerHaversine(west:south:east:north:)`` cannot be
    /// nearer than the best so far (with a margin far above the rounding of either side).
    @inline(__always)
    func mayBeNearer(_ lowerHaversine: Double) -> Bool {
        lowerHaversine < haversineOfBest * (1 + 1e-9)
    }

    /// Keeps `d` when it is nearer than the best so far.
    mutating func offer(_ d: Double) {
        guard d < km else { return }
        km = d
        haversineOfBest = Self.haversine(d / GreatCircle.meanEarthRadiusKm)
        // A new window costs a few trigonometric calls: only when it is markedly smaller.
        if d < windowKm * 0.8 {
            windowKm = d
            window = SearchWindow(around: p, radiusKm: d)
        }
    }
}

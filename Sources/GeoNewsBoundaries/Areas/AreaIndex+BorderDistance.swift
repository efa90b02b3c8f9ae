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
    public func borderDistanceKm(at p: Coordinate, country: Int) -> Double {
        for bound in [50.0, 250, 1000, 4000] {
            let d = borderDistance(p, country: country, within: bound)
            if d < bound { return d }
        }
        return borderDistance(p, country: country, within: .infinity)
    }

    private func borderDistance(_ p: Coordinate, country: Int, within maxKm: Double) -> Double {
        var best = maxKm
        let window = SearchWindow(around: p, radiusKm: maxKm)
        var candidates: [(bound: Double, slot: UInt32, x0: Double, y0: Double)] = []
        for row in window.rows {
            for col in window.columns {
                let x0 = Double(col - 180), y0 = Double(row - 90)
                guard window.mayReach(west: x0, south: y0, east: x0 + 1, north: y0 + 1) else { continue }
                let bound = CountryIndex.distanceToRectangle(p, west: x0, south: y0, east: x0 + 1, north: y0 + 1)
                if bound < best { candidates.append((bound, root[row * CountryIndexFormat.rootColumns + col], x0, y0)) }
            }
        }
        candidates.sort { $0.bound < $1.bound }
        for c in candidates {
            if c.bound >= best { break }
            visit(c.slot, x0: c.x0, y0: c.y0, size: 1, bound: c.bound, p: p, country: country, window: window, best: &best)
        }
        return best
    }

    private func visit(_ slot: UInt32, x0: Double, y0: Double, size: Double, bound: Double, p: Coordinate, country: Int,
                       window: SearchWindow, best: inout Double) {
        typealias F = CountryIndexFormat
        guard bound < best else { return }
        switch slot >> F.kindShift {
        case F.Kind.sea.rawValue:
            best = bound
        case F.Kind.country.rawValue:
            // A whole cell of another country: its nearest point is not the country's, and
            // no point of the cell is nearer.
            if self.country(ofRegion: Int(slot & F.payloadMask)) != country { best = bound }
        case F.Kind.node.rawValue:
            let k = Int(slot >> F.fanOutShift & 3) + 1, side = 1 << k
            let child = size / Double(side), base = Int(slot & F.nodeIndexMask)
            var children: [(bound: Double, index: Int)] = []
            children.reserveCapacity(side * side)
            for i in 0..<(side * side) {
                let cx = x0 + Double(i % side) * child, cy = y0 + Double(i / side) * child
                guard window.mayReach(west: cx, south: cy, east: cx + child, north: cy + child) else { continue }
                let d = CountryIndex.distanceToRectangle(p, west: cx, south: cy, east: cx + child, north: cy + child)
                if d < best { children.append((d, i)) }
            }
            children.sort { $0.bound < $1.bound }
            for c in children {
                if c.bound >= best { break }
                visit(nodes[base + c.index], x0: x0 + Double(c.index % side) * child, y0: y0 + Double(c.index / side) * child,
                      size: child, bound: c.bound, p: p, country: country, window: window, best: &best)
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
                best = min(best, Self.distanceToCountryEdges(of: group, p, cell: cell))
            }
            // None of the country here: the whole cell is outside it.
            if !holdsCountry { best = bound }
        }
    }

    /// Great-circle km from `p` to the nearest point of a group's country edges.
    private static func distanceToCountryEdges(of group: AreaLeafGroup, _ p: Coordinate, cell: AreaLeafCell) -> Double {
        let kx = cos(p.latitude * .pi / 180)
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

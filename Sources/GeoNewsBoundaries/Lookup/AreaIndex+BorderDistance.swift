import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AreaIndex {
    /// The widening windows of the search, in kilometres; beyond the last, the whole Earth.
    /// Tripling from 60 km was the fastest of the sequences timed (Paris 4.4 us, cities
    /// 11.8 us, random land 19 us with the table, against 5.1, 13.6 and 23.7 for 50, 250, 1000, 4000).
    private static let borderSearchRadii: [Double] = [60, 180, 540, 1620, 4000]

    /// Great-circle kilometres from a position inside `country` to the nearest edge of that
    /// country's area: the nearest point that is not the country's (another country, the open
    /// ocean), found on the leaves' country edges or as the nearest point of a cell wholly
    /// outside the country.
    ///
    /// Searches the grid best-first, across all levels of the tree at once, by a lower bound of
    /// the distance to a cell's rectangle on the sphere (no trigonometry; the exact distance
    /// only where a cell is an answer: at sea, or of another country), in widening windows,
    /// as ``CountryIndex/nearestLand(to:maxKm:)`` does; the
    /// nearest point of an edge is found in a local equirectangular frame centred on the
    /// position and then measured on the great circle (within 0.1 % for edges within a few
    /// hundred kilometres). `.infinity` only for a country that has no edge on Earth.
    ///
    /// - Parameter table: this index's ``AreaBorderTable``, which lets the search skip cells
    ///   the country wholly holds (the same answer, in a fraction of the time in a large
    ///   country); without it such cells are searched.
    public func borderDistanceKm(at p: Coordinate, country: Int, table: AreaBorderTable? = nil) -> Double {
        withExtendedLifetime(table) {
            for bound in Self.borderSearchRadii {
                let d = borderDistance(p, country: country, within: bound, table: table)
                if d < bound { return d }
            }
            return borderDistance(p, country: country, within: .infinity, table: table)
        }
    }

    private func borderDistance(_ p: Coordinate, country: Int, within maxKm: Double, table: AreaBorderTable?) -> Double {
        typealias F = CountryIndexFormat
        var best = BorderSearch(p, maxKm: maxKm, country: country, table: table)
        let window = SearchWindow(around: p, radiusKm: maxKm)
        // Best first over every level at once: the cell with the lowest bound comes next,
        // wherever it is in the tree, and the search ends when that bound reaches the best.
        // The bound needs no trigonometry; a cell's exact distance is measured only where it
        // is an answer (a cell at sea or of another country); a leaf is scanned without it.
        var queue = CellQueue()
        for row in window.rows {
            for col in window.columns {
                let x0 = Double(col - 180), y0 = Double(row - 90)
                let slot = root[row * F.rootColumns + col]
                guard !best.isWhollyCountry(root: row * F.rootColumns + col) && !isWhollyCountry(slot, country),
                    window.mayReach(west: x0, south: y0, east: x0 + 1, north: y0 + 1)
                else { continue }
                let lower = best.lowerHaversine(west: x0, south: y0, east: x0 + 1, north: y0 + 1)
                if best.mayBeNearer(lower) { queue.push(.init(lower: lower, slot: slot, x0: x0, y0: y0, size: 1)) }
            }
        }
        while let c = queue.pop(), best.mayBeNearer(c.lower) {
            let (slot, x0, y0, size) = (c.slot, c.x0, c.y0, c.size)
            @inline(__always) func bound() -> Double {
                CountryIndex.distanceToRectangle(p, west: x0, south: y0, east: x0 + size, north: y0 + size)
            }
            let cell = CellSlot(slot)
            switch cell.kind {
            case .sea:
                best.offer(bound())
            case .country:
                // A whole cell of another country: its nearest point is not the country's, and
                // no point of the cell is nearer.
                if self.country(ofRegion: cell.payload) != country { best.offer(bound()) }
            case .node:
                let side = 1 << cell.fanOutBits
                let child = size / Double(side), base = cell.childBase
                var i = base
                for row in 0..<side {
                    let cy = y0 + Double(row) * child
                    for col in 0..<side {
                        defer { i += 1 }
                        guard !best.isWhollyCountry(node: i) && !isWhollyCountry(nodes[i], country) else { continue }
                        let cx = x0 + Double(col) * child
                        let lower = best.lowerHaversine(west: cx, south: cy, east: cx + child, north: cy + child)
                        if best.mayBeNearer(lower) { queue.push(.init(lower: lower, slot: nodes[i], x0: cx, y0: cy, size: child)) }
                    }
                }
            case .leaf:
                // The edges of a leaf are few (a dozen in a typical border leaf): scanning them
                // costs less than measuring the leaf's rectangle first.
                var g = cell.payload
                let groups = Int(leaves[g] & AreaIndexFormat.groupCountMask)
                // The leaf's own cell, which holds this one when the leaf was repeated into a merged node.
                let cell = AreaLeafCell(depth: Int(leaves[g] >> AreaIndexFormat.depthShift), holding: x0, y: y0)
                g += 1
                var holdsCountry = false
                for _ in 0..<groups {
                    let group = AreaLeafGroup(leaves, at: g)
                    g = group.next
                    guard self.country(ofRegion: group.region) == country else { continue }
                    holdsCountry = true
                    best.offer(Self.distanceToCountryEdges(of: group, p, cell: cell, cosLatitude: best.cosLatitude))
                }
                // None of the country here: the whole cell is outside it.
                if !holdsCountry { best.offer(bound()) }
            }
        }
        return best.km
    }

    /// A cell wholly inside `country` holds none of its edges: the search need not measure it.
    @inline(__always)
    private func isWhollyCountry(_ slot: UInt32, _ country: Int) -> Bool {
        let cell = CellSlot(slot)
        return cell.kind == .country && self.country(ofRegion: cell.payload) == country
    }

    /// Great-circle km from `p` to the nearest point of a group's country edges.
    private static func distanceToCountryEdges(
        of group: AreaLeafGroup, _ p: Coordinate, cell: AreaLeafCell,
        cosLatitude kx: Double
    ) -> Double {
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

/// The nearest border found so far in a search, and what the cheap bound needs of the position.
private struct BorderSearch {
    let p: Coordinate
    let country: Int16
    /// The table's entries (see ``AreaBorderTable``), kept alive by the caller's table.
    private let rootTable: UnsafePointer<Int16>?
    private let nodeTable: UnsafePointer<Int16>?
    private(set) var km: Double
    /// cos of the position's latitude, and the haversine of the best distance's angle.
    let cosLatitude: Double
    private var haversineOfBest: Double

    init(_ p: Coordinate, maxKm: Double, country: Int, table: AreaBorderTable?) {
        self.p = p
        self.country = Int16(truncatingIfNeeded: country)
        rootTable = table?.root.baseAddress
        nodeTable = table?.nodes.baseAddress
        km = maxKm
        cosLatitude = cos(p.latitude * .pi / 180)
        haversineOfBest = Self.haversine(maxKm / GreatCircle.meanEarthRadiusKm)
    }

    @inline(__always) func isWhollyCountry(root i: Int) -> Bool { rootTable.map { $0[i] == country } ?? false }
    @inline(__always) func isWhollyCountry(node i: Int) -> Bool { nodeTable.map { $0[i] == country } ?? false }

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
    }
}

/// A binary min-heap of cells by their lower bound (sifting by moving a hole, on the raw
/// buffer: the search pushes a few hundred cells per position).
private struct CellQueue {
    struct Cell {
        let lower: Double
        let slot: UInt32
        let x0: Double, y0: Double, size: Double
    }

    private var heap: ContiguousArray<Cell> = []

    init() { heap.reserveCapacity(256) }

    mutating func push(_ cell: Cell) {
        heap.append(cell)
        heap.withUnsafeMutableBufferPointer { h in
            var i = h.count - 1
            while i > 0 {
                let parent = (i - 1) >> 1
                guard cell.lower < h[parent].lower else { break }
                h[i] = h[parent]
                i = parent
            }
            h[i] = cell
        }
    }

    mutating func pop() -> Cell? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap.withUnsafeMutableBufferPointer { h in
            let n = h.count
            var i = 0
            while true {
                var m = 2 * i + 1
                guard m < n else { break }
                if m + 1 < n && h[m + 1].lower < h[m].lower { m += 1 }
                guard h[m].lower < last.lower else { break }
                h[i] = h[m]
                i = m
            }
            h[i] = last
        }
        return first
    }
}

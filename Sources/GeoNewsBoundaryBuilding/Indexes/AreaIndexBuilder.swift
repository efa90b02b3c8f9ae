import GeoNewsBoundaries

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `area-index.bin` from `country-areas.bin` with GEOS: the tree of ``CountryIndex``
/// (``CellTree``, ``LevelMerger``) over the (country, zone) regions, leaves of compact vertices,
/// then a pass that marks each leaf edge with the region's country on one side only as a
/// country edge, by looking up the index just built a hair to either side of the edge.
///
/// The build is deterministic: the same regions and options give the same bytes.
public struct AreaIndexBuilder {
    /// Split a border cell while its clipped polygons have more vertices than this.
    public var leafVertexLimit = 32
    /// Stop splitting at cells of 2^-maxDepth degrees (10 → about 110 m).
    public var maxDepth = CountryIndexFormat.finestDepth
    /// Merge a node with its next level while at least this share of it is split (``LevelMerger``).
    public var mergeFill = 0.25
    /// Regions are clipped to blocks of this many degrees before the 1° cells, so that no cell
    /// clips a whole ocean zone (a few million vertices) on its own. Divides 180.
    public var blockDegrees = 10
    /// How far to either side of an edge's midpoint the country-edge pass looks (degrees; at
    /// least two of the leaf's units, at most half the edge's length).
    public var edgeProbeDegrees = 1e-7

    public init() {}

    /// Statistics of one build, for the tool's report.
    public struct Report: Sendable {
        public var regions = 0, regionCells = 0, nodes = 0, nodeSlots = 0, leaves = 0, groups = 0, rings = 0, vertices = 0
        public var countryEdges = 0
    }

    /// - Parameter progress: called with each block row done (0…180/blockDegrees).
    public func build(
        areas: CountryAreaFile, catalogueIDs: [String], zoneIDs: [String],
        progress: (Int) -> Void = { _ in }
    ) throws -> (bytes: [UInt8], report: Report) {
        precondition(180 % blockDegrees == 0)
        let ctx = GEOSContext()
        var geometries: [Geometry] = []
        var boxes: [Box] = []
        var table: [UInt32] = []
        for i in 0..<areas.count {
            let g = try ctx.geometry(wkb: try areas.wkb(i)).normalized()
            geometries.append(g)
            boxes.append(Box(g.envelope))
            table += [
                try areas.country(i).map(UInt32.init) ?? AreaIndexFormat.noCountry,
                UInt32(try areas.zone(i)) | (try areas.holdsUnmappedLand(i) ? CountryAreaFile.unmappedLandBit : 0),
            ]
        }
        var writer = AreaLeafWriter()
        var tree = CellTree(leafVertexLimit: leafVertexLimit, maxDepth: maxDepth, emptySlot: 0)
        tree.tiles = true
        typealias F = CountryIndexFormat
        var root = [UInt32](repeating: 0, count: F.rootColumns * F.rootRows)
        let b = Double(blockDegrees)
        for blockRow in 0..<(180 / blockDegrees) {
            for blockColumn in 0..<(360 / blockDegrees) {
                let bx = Double(blockColumn * blockDegrees - 180), by = Double(blockRow * blockDegrees - 90)
                let block = Box((bx, by, bx + b, by + b))
                let candidates = geometries.indices.filter { boxes[$0].overlaps(block) }.compactMap {
                    Piece(item: $0, geometry: geometries[$0])
                }
                let blockPieces = try Piece.clip(candidates, xmin: bx, ymin: by, xmax: bx + b, ymax: by + b, tiles: true)
                let boxesInBlock = blockPieces.map { Box($0.geometry.envelope) }
                for row in (blockRow * blockDegrees)..<((blockRow + 1) * blockDegrees) {
                    let y0 = Double(row - 90)
                    for col in (blockColumn * blockDegrees)..<((blockColumn + 1) * blockDegrees) {
                        let x0 = Double(col - 180)
                        let cell = Box((x0, y0, x0 + 1, y0 + 1))
                        let nearby = blockPieces.indices.filter { boxesInBlock[$0].overlaps(cell) }.map { blockPieces[$0] }
                        let pieces = try Piece.clip(nearby, xmin: x0, ymin: y0, xmax: x0 + 1, ymax: y0 + 1, tiles: true)
                        root[row * F.rootColumns + col] = try tree.encode(pieces, x0: x0, y0: y0, size: 1, depth: 0, writer: &writer)
                    }
                }
            }
            progress(blockRow + 1)
        }
        var report = writer.report
        report.regions = areas.count
        report.regionCells = root.filter { CellSlot($0).kind == .country }.count
        var merger = LevelMerger(quadtree: tree.quadtree, minimumFill: mergeFill)
        for i in root.indices { root[i] = merger.merge(root[i], depth: 0) }
        report.nodes = merger.nodeCount
        report.nodeSlots = merger.nodes.count
        var bytes = serialise(
            root: root, nodes: merger.nodes, leaves: writer.leaves, regions: table,
            catalogueIDs: catalogueIDs, zoneIDs: zoneIDs)
        report.countryEdges = try markCountryEdges(
            &bytes, leafOrigins: writer.leafOrigins, areas: areas,
            catalogueIDs: catalogueIDs, zoneIDs: zoneIDs)
        Self.sealChecksum(&bytes)
        return (bytes, report)
    }

    /// Sets the country-edge bit of every leaf edge that has the region's country on one side
    /// only (a land border, the limit of a territorial sea, or the side of a cell where such an
    /// edge runs); an edge between two regions of one country, and any edge of an ocean region,
    /// stays clear. Returns how many edges were marked.
    private func markCountryEdges(
        _ bytes: inout [UInt8], leafOrigins: [(offset: Int, x0: Double, y0: Double, size: Double)],
        areas: CountryAreaFile, catalogueIDs: [String], zoneIDs: [String]
    ) throws -> Int {
        try bytes.withUnsafeMutableBytes { raw throws -> Int in
            // Every probe lies within rounding of an edge, so each is settled on its region's
            // own polygons: with their edges in runs, a probe reads a few runs of an ocean's
            // millions of vertices (80 % of the build's time went to reading them all).
            let index = try AreaIndex(
                bytes: UnsafeRawBufferPointer(raw), owner: nil, path: AreaIndexFormat.fileName,
                catalogueIDs: catalogueIDs, zoneIDs: zoneIDs, areas: areas, edgeRuns: true)
            let mask = AreaIndexFormat.coordinateMask
            func country(_ lon: Double, _ lat: Double) -> Int? {
                let x = lon >= 180 ? lon - 360 : lon < -180 ? lon + 360 : lon
                return index.region(at: .init(latitude: min(90, max(-90, lat)), longitude: x)).flatMap(index.country(ofRegion:))
            }
            var marked = 0
            for leaf in leafOrigins {
                var p = leaf.offset
                let groups = Int(index.leaves[p] & AreaIndexFormat.groupCountMask)
                p += 1
                let unit = leaf.size / Double(1 << AreaIndexFormat.unitBits)
                for _ in 0..<groups {
                    let group = AreaLeafGroup(index.leaves, at: p)
                    p = group.next
                    guard let own = index.country(ofRegion: group.region) else { continue }
                    let v = UnsafeMutableBufferPointer(mutating: group.vertices)
                    for r in 0..<group.ringCount {
                        let ring = group.ring(r)
                        for k in ring.lowerBound..<(ring.upperBound - 1) {
                            let ax = leaf.x0 + Double(v[2 * k] & mask) * unit, ay = leaf.y0 + Double(v[2 * k + 1]) * unit
                            let bx = leaf.x0 + Double(v[2 * k + 2] & mask) * unit, by = leaf.y0 + Double(v[2 * k + 3]) * unit
                            let dx = bx - ax, dy = by - ay, length = (dx * dx + dy * dy).squareRoot()
                            guard length > 0 else { continue }
                            // Beyond the vertices' rounding (half a unit), within the edge's length.
                            let e = min(max(edgeProbeDegrees, 2 * unit), length / 2) / length
                            let mx = (ax + bx) / 2, my = (ay + by) / 2
                            if country(mx - dy * e, my + dx * e) != own || country(mx + dy * e, my - dx * e) != own {
                                v[2 * k] |= AreaIndexFormat.countryEdgeBit
                                marked += 1
                            }
                        }
                    }
                }
            }
            return marked
        }
    }

    private func serialise(
        root: [UInt32], nodes: [UInt32], leaves: [UInt16], regions: [UInt32],
        catalogueIDs: [String], zoneIDs: [String]
    ) -> [UInt8] {
        typealias F = AreaIndexFormat
        var out = [UInt8](repeating: 0, count: F.headerSize)
        var offsets: [UInt64] = []
        var counts: [UInt32] = []
        func append<T>(_ array: [T]) {
            while out.count % 8 != 0 { out.append(0) }
            offsets.append(UInt64(out.count))
            counts.append(UInt32(array.count))
            array.withUnsafeBytes { out.append(contentsOf: $0) }
        }
        append(root)
        append(nodes)
        append(leaves)
        append(regions)
        while (out.count - F.headerSize) % 32 != 0 { out.append(0) }
        func put<T: FixedWidthInteger>(_ v: T, at offset: Int) {
            withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { out[offset + i] = b } }
        }
        for (i, b) in F.magic.enumerated() { out[i] = b }
        put(F.version, at: 8)
        put(UInt32(catalogueIDs.count), at: 12)
        put(CountryIndexFormat.catalogueHash(catalogueIDs), at: 16)
        put(F.zoneHash(zoneIDs), at: 24)
        put(UInt32(regions.count / 2), at: 40)
        put(UInt32(CountryIndexFormat.finestDepth), at: 44)
        for s in 0..<F.sectionCount {
            put(offsets[s], at: 48 + 8 * s)
            put(counts[s], at: 48 + 8 * F.sectionCount + 4 * s)
        }
        return out
    }

    /// Writes the checksum of everything after the header into the header.
    static func sealChecksum(_ bytes: inout [UInt8]) {
        let sum = checksum(bytes)
        withUnsafeBytes(of: sum.littleEndian) { for (i, b) in $0.enumerated() { bytes[32 + i] = b } }
    }

    /// The checksum of everything after the header (``CountryIndexFormat/checksum(_:)``).
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { CountryIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: $0[AreaIndexFormat.headerSize...])) }
    }
}

/// Writes area leaves and remembers where each lies, for the country-edge pass.
private struct AreaLeafWriter: CellTreeLeafWriter {
    var leaves: [UInt16] = []
    var leafOrigins: [(offset: Int, x0: Double, y0: Double, size: Double)] = []
    var report = AreaIndexBuilder.Report()

    mutating func addLeaf(_ pieces: [Piece], x0: Double, y0: Double, size: Double) -> UInt32 {
        let offset = leaves.count
        var depth = 0
        while Double(1 << depth) * size < 1 { depth += 1 }
        precondition(pieces.count <= Int(AreaIndexFormat.groupCountMask) && depth <= CountryIndexFormat.finestDepth)
        leaves.append(UInt16(pieces.count) | UInt16(depth) << AreaIndexFormat.depthShift)
        for p in pieces {
            var rings: [[Double]] = []
            p.geometry.forEachRing { _, _, xy in rings.append(Array(xy)) }
            AreaLeafGroup.append(region: p.item, rings: rings, x0: x0, y0: y0, size: size, to: &leaves)
            report.groups += 1
            report.rings += rings.count
            report.vertices += rings.reduce(0) { $0 + $1.count / 2 }
        }
        report.leaves += 1
        leafOrigins.append((offset, x0, y0, size))
        precondition(offset <= CellSlot.payloadLimit)
        return CellSlot(.leaf, payload: UInt32(offset)).raw
    }
}

import GeoNewsData
import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The region of a position: the one of its ``Region`` whose polygons hold it, or, where none
/// of its country's does (at sea inside the territorial sea, or where GeoNews's country border
/// and Natural Earth's admin-1 polygons disagree), its country's nearest.
public struct RegionAnswer: Sendable, Hashable {
    public let region: Region
    /// Natural Earth's finer unit where it is finer than the region (a French department).
    public let subregion: Subregion?
    /// Whether the position lies inside the region's polygons (else the region is the nearest
    /// of the country's).
    public let inside: Bool
}

/// `Data/regions.bin` (built by `Scripts/build_regions.py`, its layout in `regions_bin`): the
/// polygons of every region in microdegrees and a 1° grid of their boxes, read as mapped. The
/// region of a position is always one of the country the resolver answered, so the country
/// borders stay OpenStreetMap's: the polygons are searched among that country's only.
///
/// Every count and offset is checked when the file is loaded; a query reads only what the
/// checks bound. Immutable and lock-free.
public final class RegionIndex: @unchecked Sendable {
    // Sendable: the bytes are a PROT_READ map that never changes until deinit.
    public static let fileName = "regions.bin"
    static let magic: [UInt8] = Array("GNREGIX1".utf8)
    static let headerBytes = 64
    static let partBytes = 32
    static let columns = 360
    static let rows = 180

    public let path: String
    /// How many regions and Natural Earth features it holds (regions.json's counts).
    public let regionCount: Int
    public let featureCount: Int
    private let file: MappedFile
    private let partCount: Int
    /// How many vertices the file holds.
    let vertexCount: Int
    /// Where ``withEdgeIndex()`` keeps the edge index it builds (``RegionEdgeIndex/fileName``):
    /// the data's area index folder when loaded from a data directory, else nowhere.
    private let derivedFolder: String?
    private let partsAt: Int
    private let ringsAt: Int
    private let verticesAt: Int
    private let cellsAt: Int
    private let entriesAt: Int
    private let linesAt: Int
    private let textAt: Int
    private let textCount: Int
    /// Per country code: its key, the index of its parts and its code's two bytes.
    private let countryKeys: [String: Int]
    /// Per country key: the country's parts.
    private let countryParts: [[Int32]]
    /// Per part: its region and its country's key, so that a lookup tells a part's country
    /// without reading the part's record and the region's line from the file.
    private let partRegions: [Int32]
    private let partKeys: [UInt16]
    /// The parts' edges by band and by cell, for answering many positions; `nil` in a
    /// single-position index (``withEdgeIndex()``).
    private let edges: RegionEdgeIndex?
    /// With the edge index: every region and subregion decoded once, and each feature's own
    /// region, so that an answer copies them instead of reading the text.
    private let decoded: (regions: [Region], subregions: [Subregion?], owners: [Int?])?

    /// `regions.bin` in the data directory.
    public static func load(from directory: DataDirectory) throws(DataError) -> RegionIndex {
        try load(from: directory, indexFolder: nil)
    }

    /// ``load(from:)`` with the edge index kept in `indexFolder` instead, when given (a
    /// library's own folder of indexes).
    public static func load(from directory: DataDirectory, indexFolder: String?) throws(DataError) -> RegionIndex {
        try RegionIndex(path: directory.file(fileName), derivedFolder: indexFolder ?? directory.areaIndexFolder)
    }

    /// This index with its parts' edges indexed by band and by cell: the same answers, many
    /// times faster for a batch or a server. The index is built once, in about a tenth of a
    /// second, and kept as `region-edges.bin` in the data's area index folder for the next run
    /// to map (``RegionEdgeIndex/load(for:folder:)``); a single position is answered faster
    /// without it.
    public func withEdgeIndex() -> RegionIndex {
        edges != nil ? self : RegionIndex(self, edges: RegionEdgeIndex.load(for: self, folder: derivedFolder))
    }

    /// Makes sure `folder` holds the edge index of this `regions.bin` (`region-edges.bin`,
    /// ``withEdgeIndex()``): kept when it is there and intact, else built and written, for an
    /// installed layout whose folder the runs cannot write. Returns its path.
    @discardableResult
    public func installEdgeIndex(into folder: String) throws(DataError) -> String {
        let path = folder + "/" + RegionEdgeIndex.fileName
        guard RegionEdgeIndex.loadOrBuild(for: self, folder: folder).kept else {
            throw .unreadable(path: path, reason: "cannot write it")
        }
        return path
    }

    private init(_ other: RegionIndex, edges: RegionEdgeIndex) {
        decoded = (
            (0..<other.regionCount).map(other.region(at:)), (0..<other.featureCount).map(other.subregion(ofFeature:)),
            (0..<other.featureCount).map(other.ownRegion(ofFeature:))
        )
        path = other.path
        vertexCount = other.vertexCount
        derivedFolder = other.derivedFolder
        regionCount = other.regionCount
        featureCount = other.featureCount
        file = other.file
        partCount = other.partCount
        partsAt = other.partsAt
        ringsAt = other.ringsAt
        verticesAt = other.verticesAt
        cellsAt = other.cellsAt
        entriesAt = other.entriesAt
        linesAt = other.linesAt
        textAt = other.textAt
        textCount = other.textCount
        countryKeys = other.countryKeys
        countryParts = other.countryParts
        partRegions = other.partRegions
        partKeys = other.partKeys
        self.edges = edges
    }

    public convenience init(path: String) throws(DataError) {
        try self.init(path: path, derivedFolder: nil)
    }

    private init(path: String, derivedFolder: String?) throws(DataError) {
        let file = try MappedFile(path: path)
        let b = file.bytes
        func bad(_ why: String) -> DataError { .corrupt(path: path, reason: why) }
        func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        guard b.count >= Self.headerBytes, Array(b[0..<8]) == Self.magic else { throw bad("not a region index (no GNREGIX1 header)") }
        guard u32(8) == 1 else { throw bad("version \(u32(8)), not 1") }
        let regions = u32(12), features = u32(16), parts = u32(20), rings = u32(24), vertices = u32(28)
        let cells = u32(32), entries = u32(36), text = u32(40)
        guard cells == Self.columns * Self.rows, regions <= 1 << 16, features <= 1 << 16, parts <= 1 << 20, rings <= 1 << 24,
            vertices <= 1 << 27, entries <= 1 << 26, text <= 1 << 26
        else {
            throw bad(
                "\(regions) regions, \(features) features, \(parts) parts, \(rings) rings, \(vertices) vertices, \(cells) cells, \(entries) entries or \(text) text bytes, out of bounds"
            )
        }
        let partsAt = Self.headerBytes
        let ringsAt = partsAt + parts * Self.partBytes
        let verticesAt = ringsAt + (rings + 1) * 4
        let cellsAt = verticesAt + vertices * 8
        let entriesAt = cellsAt + (cells + 1) * 4
        let linesAt = entriesAt + entries * 4
        let textAt = linesAt + (regions + features + 2) * 4
        guard textAt + text == b.count else { throw bad("\(b.count) bytes where its header declares \(textAt + text)") }
        /// Checks that the `count + 1` offsets at `at` rise and end at `end`.
        func checkRising(_ at: Int, _ count: Int, end: Int, _ what: String) throws(DataError) {
            var last = 0
            for k in 0...count {
                let value = u32(at + k * 4)
                guard value >= last, value <= end, k < count || value == end else {
                    throw bad("\(what) \(k) starts at \(value), out of order")
                }
                last = value
            }
        }
        try checkRising(ringsAt, rings, end: vertices, "ring")
        try checkRising(cellsAt, cells, end: entries, "grid cell")
        // The regions' lines, then the features' lines (a start of one list of lines is the end of the last).
        try checkRising(linesAt, regions, end: u32(linesAt + (regions + 1) * 4), "region line")
        try checkRising(linesAt + (regions + 1) * 4, features, end: text, "feature line")
        for e in 0..<entries where u32(entriesAt + e * 4) >= parts {
            throw bad("grid entry \(e) names part \(u32(entriesAt + e * 4)) of \(parts)")
        }
        var keys: [String: Int] = [:]
        var partsOf: [[Int32]] = []
        for p in 0..<parts {
            let at = partsAt + p * Self.partBytes
            let region = u32(at), feature = u32(at + 4), first = u32(at + 8), count = u32(at + 12)
            guard region < regions, feature < features, first <= rings, count <= rings - first else {
                throw bad("part \(p) names region \(region), feature \(feature) or rings \(first)+\(count) out of bounds")
            }
            // A region's line starts with its two-letter country.
            let line = u32(linesAt + region * 4)
            guard u32(linesAt + region * 4 + 4) - line > 3 else { throw bad("region \(region) has no country") }
            let bytes = (b[textAt + line], b[textAt + line + 1])
            let code = String(decoding: [bytes.0, bytes.1], as: UTF8.self)
            let key: Int
            if let known = keys[code] {
                key = known
            } else {
                key = partsOf.count
                keys[code] = key
                partsOf.append([])
            }
            partsOf[key].append(Int32(p))
        }
        self.path = path
        self.regionCount = regions
        self.featureCount = features
        self.file = file
        self.partCount = parts
        self.partsAt = partsAt
        self.ringsAt = ringsAt
        self.verticesAt = verticesAt
        self.cellsAt = cellsAt
        self.entriesAt = entriesAt
        self.linesAt = linesAt
        self.textAt = textAt
        self.textCount = text
        self.countryKeys = keys
        self.countryParts = partsOf
        var partKeys = [UInt16](repeating: 0, count: parts)
        for (key, keyed) in partsOf.enumerated() { for p in keyed { partKeys[Int(p)] = UInt16(key) } }
        self.partKeys = partKeys
        self.partRegions = (0..<parts).map { Int32(u32(partsAt + $0 * Self.partBytes)) }
        self.vertexCount = vertices
        self.derivedFolder = derivedFolder
        self.edges = nil
        self.decoded = nil
    }

    /// Region `k` (regions.json's order): its line of the text, split at tabs.
    public func region(at k: Int) -> Region {
        precondition(k >= 0 && k < regionCount)
        // With the edge index every region is decoded already.
        if let decoded { return decoded.regions[k] }
        let f = fields(ofLine: k)
        var names: [String: String] = [:]
        var i = 4
        while i + 1 < f.count {
            names[f[i]] = f[i + 1]
            i += 2
        }
        return Region(
            country: f.count > 0 ? f[0] : "", geonamesAdmin1: f.count > 1 ? f[1] : "",
            iso3166Code: f.count > 2 && !f[2].isEmpty ? f[2] : nil, name: f.count > 3 ? f[3] : "", names: names)
    }

    /// The subregion Natural Earth feature `k` is, or nil.
    public func subregion(ofFeature k: Int) -> Subregion? {
        precondition(k >= 0 && k < featureCount)
        let f = fields(ofLine: regionCount + 1 + k)
        guard let name = f.first, !name.isEmpty else { return nil }
        return Subregion(name: name, iso3166Code: f.count > 1 && !f[1].isEmpty ? f[1] : nil)
    }

    /// Every region and subregion, decoded: what `geonews regions` lists and searches.
    public func catalogue() throws(DataError) -> RegionCatalogue {
        let regions = (0..<regionCount).map(region(at:))
        for (k, r) in regions.enumerated() where r.country.count != 2 || !r.geonamesAdmin1.hasPrefix(r.country + ".") || r.name.isEmpty {
            throw .corrupt(path: path, reason: "region \(k) ('\(r.geonamesAdmin1)' of country '\(r.country)') is malformed")
        }
        for k in regions.indices.dropFirst() where regions[k - 1].country > regions[k].country {
            throw .corrupt(path: path, reason: "regions are not ordered by country at '\(regions[k].geonamesAdmin1)'")
        }
        return RegionCatalogue(regions: regions, subregions: (0..<featureCount).map(subregion(ofFeature:)))
    }

    /// Line `k` of the text (regions, then a gap entry, then features) split at tabs; bounds
    /// checked at load.
    private func fields(ofLine k: Int) -> [String] {
        let start = u32(linesAt + k * 4), end = u32(linesAt + k * 4 + 4)
        guard end > start else { return [] }
        return UnsafeRawBufferPointer(rebasing: file.bytes[(textAt + start)..<(textAt + end)])
            .split(separator: 9, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The region of `resolution`'s position in the country it answered; nil with no country,
    /// or for a country without regions.
    public func region(for resolution: Resolution) -> RegionAnswer? {
        resolution.country?.iso2.flatMap { region(at: resolution.position, country: $0) }
    }

    /// The region of `position` among those of the country with this ISO alpha-2 code: the one
    /// whose polygons hold it, else the nearest (measured on an equirectangular plane around the
    /// position, which ranks nearby polygons as the sphere does). Nil for a country without regions.
    public func region(at position: Coordinate, country iso2: String) -> RegionAnswer? {
        guard let key = countryKey(iso2: iso2), let found = part(at: position, countryKey: key) else { return nil }
        return answer(part(found.part), inside: found.inside)
    }

    /// The key of the country with this ISO alpha-2 code among the countries with regions, for
    /// ``regionIndex(at:countryKey:)``; nil for a country without regions.
    public func countryKey(iso2: String) -> Int? { countryKeys[iso2] }

    /// The index (``region(at:)``) of the region that ``region(at:country:)`` answers, for the
    /// country of `countryKey` (``countryKey(iso2:)``): the same search, with no string made.
    public func regionIndex(at position: Coordinate, countryKey key: Int) -> Int? {
        part(at: position, countryKey: key).map { Int(partRegions[$0.part]) }
    }

    /// The part whose polygons hold `position` among those of the country of `key`, else the
    /// nearest; whether it holds the position.
    private func part(at position: Coordinate, countryKey key: Int) -> (part: Int, inside: Bool)? {
        // Every country key names at least one part (keys are made from the parts, at load).
        let x = Int64((position.longitude * 1e6).rounded()), y = Int64((position.latitude * 1e6).rounded())
        let column = min(max(Int(Self.floorDivide(x, 1_000_000)) + 180, 0), Self.columns - 1)
        let row = min(max(Int(Self.floorDivide(y, 1_000_000)) + 90, 0), Self.rows - 1)
        let cell = row * Self.columns + column
        // A part that holds the whole of the position's 1/4° cell answers at once (the same part
        // the search below would find first).
        if let whole = edges?.wholePart(x, y), Int(partKeys[whole]) == key {
            return (whole, true)
        }
        for e in gridEntries(cell) {
            let p = u32(entriesAt + e * 4)
            guard Int(partKeys[p]) == key else { continue }
            let part = self.part(p)
            guard part.box.contains(x, y) else { continue }
            guard edges?.contains(p, x, y, in: self) ?? contains(part, x, y) else { continue }
            return (p, true)
        }
        return (Int(nearest(among: countryParts[key], x: x, y: y)), false)
    }

    // MARK: the file

    struct Part {
        let region: Int
        let feature: Int
        let rings: Range<Int>
        let box: Box
    }

    struct Box {
        let west: Int64, south: Int64, east: Int64, north: Int64
        func contains(_ x: Int64, _ y: Int64) -> Bool { x >= west && x <= east && y >= south && y <= north }
    }

    private func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: file.bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
    private func i32(_ at: Int) -> Int64 { Int64(Int32(littleEndian: file.bytes.loadUnaligned(fromByteOffset: at, as: Int32.self))) }

    var parts: Int { partCount }

    /// The whole file, for ``RegionEdgeIndex/load(for:folder:)`` to identify.
    var bytes: UnsafeRawBufferPointer { file.bytes }

    /// Drops the file's pages from the resident set (they stay in the page cache): for after a
    /// pass that read all of it.
    func releaseResidentPages() { file.releaseResidentPages() }

    /// The entries of 1° cell `cell` (row × 360 + column) of the file's grid, in order.
    func gridEntries(_ cell: Int) -> Range<Int> { u32(cellsAt + cell * 4)..<u32(cellsAt + cell * 4 + 4) }

    /// The part that grid entry `e` names (checked at load).
    func gridPart(_ e: Int) -> Int { u32(entriesAt + e * 4) }

    func part(_ p: Int) -> Part {
        precondition(p >= 0 && p < partCount)
        let at = partsAt + p * Self.partBytes
        let first = u32(at + 8)
        return Part(
            region: u32(at), feature: u32(at + 4), rings: first..<(first + u32(at + 12)),
            box: Box(west: i32(at + 16), south: i32(at + 20), east: i32(at + 24), north: i32(at + 28)))
    }

    /// The vertices of ring `r`, checked at load to lie inside the vertex section.
    func vertices(ofRing r: Int) -> Range<Int> { u32(ringsAt + r * 4)..<u32(ringsAt + r * 4 + 4) }

    @inline(__always)
    func vertex(_ v: Int) -> (x: Int64, y: Int64) { (i32(verticesAt + v * 8), i32(verticesAt + v * 8 + 4)) }

    private func answer(_ part: Part, inside: Bool) -> RegionAnswer {
        if let decoded {
            let own = decoded.owners[part.feature] == part.region
            return RegionAnswer(
                region: decoded.regions[part.region], subregion: own ? decoded.subregions[part.feature] : nil, inside: inside)
        }
        // A split feature's other parts belong to other regions: the feature's name is not theirs.
        let own = ownRegion(ofFeature: part.feature) == part.region
        return RegionAnswer(region: region(at: part.region), subregion: own ? subregion(ofFeature: part.feature) : nil, inside: inside)
    }

    /// The region of the feature's first part (its own; the others of a split feature follow).
    private func ownRegion(ofFeature feature: Int) -> Int? {
        var low = 0, high = partCount
        while low < high {
            let mid = (low + high) / 2
            if u32(partsAt + mid * Self.partBytes + 4) < feature { low = mid + 1 } else { high = mid }
        }
        guard low < partCount, u32(partsAt + low * Self.partBytes + 4) == feature else { return nil }
        return u32(partsAt + low * Self.partBytes)
    }

    // MARK: geometry

    /// Even-odd crossing test over every ring of `part`, in exact integer arithmetic.
    private func contains(_ part: Part, _ x: Int64, _ y: Int64) -> Bool {
        var inside = false
        for r in part.rings {
            let vs = vertices(ofRing: r)
            guard vs.count >= 2 else { continue }
            var (x1, y1) = vertex(vs.lowerBound)
            for v in (vs.lowerBound + 1)..<vs.upperBound {
                let (x2, y2) = vertex(v)
                if (y1 > y) != (y2 > y) {
                    let lhs = (x2 - x1) * (y - y1), rhs = (x - x1) * (y2 - y1)
                    if y2 > y1 ? rhs < lhs : rhs > lhs { inside.toggle() }
                }
                (x1, y1) = (x2, y2)
            }
        }
        return inside
    }

    /// The part nearest to (x, y) among `parts`: boxes first, nearest first, until a box lies
    /// farther than the best edge. Longitudes are taken across the antimeridian where shorter.
    private func nearest(among parts: [Int32], x: Int64, y: Int64) -> Int32 {
        let k = max(cos(Double(y) / 1e6 * .pi / 180), 0.01)
        func shifted(_ box: Box) -> Int64 {
            let centre = (box.west + box.east) / 2
            return centre - x > 180_000_000 ? x + 360_000_000 : (x - centre > 180_000_000 ? x - 360_000_000 : x)
        }
        // Each part's box distance, then the parts taken nearest box first, ties by part (the
        // order a sort of every box would give), each picked from the rest by one pass: the
        // search stops after a few, so a country of hundreds of parts sorts none of them.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: parts.count) { bounds in
            for (i, p) in parts.enumerated() {
                let box = part(Int(p)).box
                let px = shifted(box)
                let dx = Double(max(0, box.west - px, px - box.east)) * k, dy = Double(max(0, box.south - y, y - box.north))
                bounds[i] = dx * dx + dy * dy
            }
            /// The unvisited part of the nearest box (ties to the lower part), or nil when all are visited.
            func next() -> Int? {
                var chosen: Int?
                for i in 0..<parts.count where bounds[i].isFinite {
                    if let c = chosen, (bounds[i], parts[i]) >= (bounds[c], parts[c]) { continue }
                    chosen = i
                }
                return chosen
            }
            guard let first = next() else { return parts[0] }
            var best = (d2: Double.infinity, part: parts[first])
            while let i = next() {
                let bound = bounds[i], p = parts[i]
                if bound >= best.d2 { break }
                bounds[i] = .infinity  // visited
                let part = part(Int(p))
                let px = shifted(part.box)
                if let edges {
                    if edges.nearer(Int(p), px: px, y: y, k: k, than: &best.d2, in: self) { best.part = p }
                    continue
                }
                for r in part.rings {
                    let vs = vertices(ofRing: r)
                    guard !vs.isEmpty else { continue }
                    var a = vertex(vs.lowerBound)
                    for v in vs {
                        let b = vertex(v)
                        let d2 = Self.segmentDistance2(
                            ax: Double(a.x - px) * k, ay: Double(a.y - y), bx: Double(b.x - px) * k, by: Double(b.y - y))
                        if d2 < best.d2 { best = (d2, p) }
                        a = b
                    }
                }
            }
            return best.part
        }
    }

    /// The squared distance from the origin to the segment a–b.
    static func segmentDistance2(ax: Double, ay: Double, bx: Double, by: Double) -> Double {
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(max(-(ax * dx + ay * dy) / length2, 0), 1) : 0
        let cx = ax + t * dx, cy = ay + t * dy
        return cx * cx + cy * cy
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

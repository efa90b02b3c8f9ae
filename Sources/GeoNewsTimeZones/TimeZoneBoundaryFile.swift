import GeoNewsData

/// `timezone-boundaries.bin`: the polygons of timezone-boundary-builder (OpenStreetMap's
/// borders with territorial waters, the open ocean as `Etc/GMT±N`), decoded from the pinned
/// wheel by `Scripts/build_timezones.py`. Read at index build time only. Little-endian:
///
/// ```
/// "GNTZB001"  u32 zones  u32 polygons  u32 rings  u32 vertices
/// u32 firstPolygon[zones + 1]  u32 firstRing[polygons + 1]  u32 firstVertex[rings + 1]
/// i32 (longitude, latitude)[vertices]                        micro-degrees (1e-6°)
/// ```
///
/// Zones are in the order of `timezones.json`; a polygon's first ring is its shell and the
/// others are its holes; rings are open (the first vertex is not repeated).
public struct TimeZoneBoundaryFile: Sendable {
    public static let fileName = "timezone-boundaries.bin"
    /// Degrees per stored unit.
    public static let degreesPerUnit = 1e-6

    public let file: MappedFile
    public let zoneCount: Int
    public let polygonCount: Int
    public let ringCount: Int
    public let vertexCount: Int
    private let firstPolygon: Int, firstRing: Int, firstVertex: Int, coordinates: Int

    /// Maps the file and checks its header, its size and that every table is ordered, so that
    /// no accessor can read outside the file. Throws ``/GeoNewsData/DataError/corrupt(path:reason:)``
    /// otherwise.
    public init(path: String) throws(DataError) {
        file = try MappedFile(path: path)
        guard file.bytes.count >= 24, Array(file.bytes[0..<8]) == Array("GNTZB001".utf8) else {
            throw .corrupt(path: path, reason: "not a GeoNews time-zone boundary file (bad magic)")
        }
        zoneCount = Int(try file.integer(UInt32.self, at: 8))
        polygonCount = Int(try file.integer(UInt32.self, at: 12))
        ringCount = Int(try file.integer(UInt32.self, at: 16))
        vertexCount = Int(try file.integer(UInt32.self, at: 20))
        firstPolygon = 24
        firstRing = firstPolygon + 4 * (zoneCount + 1)
        firstVertex = firstRing + 4 * (polygonCount + 1)
        coordinates = firstVertex + 4 * (ringCount + 1)
        let expected = coordinates + 8 * vertexCount
        guard file.bytes.count == expected else {
            throw .corrupt(path: path, reason: "\(file.bytes.count) bytes where the header describes \(expected)")
        }
        try checkOrdered(at: firstPolygon, count: zoneCount, last: polygonCount, table: "zone")
        try checkOrdered(at: firstRing, count: polygonCount, last: ringCount, table: "polygon")
        try checkOrdered(at: firstVertex, count: ringCount, last: vertexCount, table: "ring")
    }

    /// The polygons of zone `zone` (the order of `timezones.json`), as indices.
    public func polygons(ofZone zone: Int) -> Range<Int> {
        precondition(zone >= 0 && zone < zoneCount, "zone \(zone) is outside 0..<\(zoneCount)")
        return entry(firstPolygon, zone)..<entry(firstPolygon, zone + 1)
    }

    /// The rings of polygon `polygon`: the first is its shell, the rest its holes.
    public func rings(ofPolygon polygon: Int) -> Range<Int> {
        precondition(polygon >= 0 && polygon < polygonCount, "polygon \(polygon) is outside 0..<\(polygonCount)")
        return entry(firstRing, polygon)..<entry(firstRing, polygon + 1)
    }

    /// The vertices of ring `ring` as interleaved (longitude, latitude) micro-degrees, open.
    public func vertices(ofRing ring: Int) -> UnsafeBufferPointer<Int32> {
        precondition(ring >= 0 && ring < ringCount, "ring \(ring) is outside 0..<\(ringCount)")
        let start = entry(firstVertex, ring), end = entry(firstVertex, ring + 1)
        let base = (file.bytes.baseAddress! + coordinates).assumingMemoryBound(to: Int32.self)
        return UnsafeBufferPointer(start: base + 2 * start, count: 2 * (end - start))
    }

    /// The bounding box of zone `zone`'s shells, in degrees.
    public func extent(ofZone zone: Int) -> (xmin: Double, ymin: Double, xmax: Double, ymax: Double) {
        var (x0, y0, x1, y1) = (Int32.max, Int32.max, Int32.min, Int32.min)
        for polygon in polygons(ofZone: zone) {
            let shell = vertices(ofRing: rings(ofPolygon: polygon).lowerBound)
            var i = 0
            while i < shell.count {
                x0 = min(x0, shell[i]); x1 = max(x1, shell[i])
                y0 = min(y0, shell[i + 1]); y1 = max(y1, shell[i + 1])
                i += 2
            }
        }
        let u = Self.degreesPerUnit
        return (Double(x0) * u, Double(y0) * u, Double(x1) * u, Double(y1) * u)
    }

    /// Even–odd containment of a point in polygon `polygon` (shell minus holes), by the
    /// crossing number. A reference for builds and tests, not a query path: within rounding
    /// of an edge (about 1e-15°) the answer may fall either side. `longitude` and `latitude`
    /// in degrees.
    public func polygon(_ polygon: Int, contains longitude: Double, _ latitude: Double) -> Bool {
        let x = longitude / Self.degreesPerUnit, y = latitude / Self.degreesPerUnit
        var inside = false
        for ring in rings(ofPolygon: polygon) {
            let v = vertices(ofRing: ring)
            let n = v.count / 2
            var j = n - 1
            for i in 0..<n {
                let xi = Double(v[2 * i]), yi = Double(v[2 * i + 1])
                let xj = Double(v[2 * j]), yj = Double(v[2 * j + 1])
                if (yi > y) != (yj > y), ((x - xi) * (yj - yi) < (xj - xi) * (y - yi)) == (yj > yi) {
                    inside.toggle()
                }
                j = i
            }
        }
        return inside
    }

    private func entry(_ table: Int, _ i: Int) -> Int {
        Int(UInt32(littleEndian: file.bytes.loadUnaligned(fromByteOffset: table + 4 * i, as: UInt32.self)))
    }

    private func checkOrdered(at table: Int, count: Int, last: Int, table name: String) throws(DataError) {
        var previous = entry(table, 0)
        guard previous == 0 else { throw .corrupt(path: file.path, reason: "the \(name) table does not start at 0") }
        for i in 1...count {
            let next = entry(table, i)
            guard next >= previous else {
                throw .corrupt(path: file.path, reason: "the \(name) table goes backwards at entry \(i)")
            }
            previous = next
        }
        guard previous == last else {
            throw .corrupt(path: file.path, reason: "the \(name) table ends at \(previous), not \(last)")
        }
    }
}

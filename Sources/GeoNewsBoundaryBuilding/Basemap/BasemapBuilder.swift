import GeoNewsBoundaries

/// Builds `Data/basemap.geojson`, the web map's base layer: every catalogue country's boundary
/// simplified with GEOS and written as a compact RFC 7946 FeatureCollection, so the page needs
/// no tile server and stays small (the whole first view must fit in 1.5 MB compressed).
///
/// Each feature carries `iso2` (`null` where ISO has none), `id`, `name` and `news` (one of the
/// 54 news countries), so the page can make news countries stand out and name what a click hit.
/// The output is byte-for-byte deterministic for the same inputs, so `geonews-index --check`
/// can compare it with the committed file.
public struct BasemapBuilder: Sendable {
    /// Douglas-Peucker tolerance in degrees (0.05° is about 5.5 km at the equator: finer than a
    /// pixel of the whole world at zoom 4, where the base map is mostly seen).
    public var tolerance = 0.05
    /// Coordinates are written in units of 10^-decimals degrees (2: about 1.1 km).
    public var decimals = 2
    /// Polygons (islands) smaller than this many square degrees are left out, except a country's
    /// largest, so that Singapore, Monaco and the Vatican still have a shape.
    public var minimumPolygonArea = 0.01

    public init() {}

    /// The GeoJSON bytes for `countries` (catalogue order) and their boundaries.
    public func build(boundaries: BoundaryFile, countries: [Country]) throws -> [UInt8] {
        let ctx = GEOSContext()
        var out = Array(#"{"type":"FeatureCollection","features":["#.utf8)
        var first = true
        for (i, country) in countries.enumerated() {
            var source = try ctx.geometry(wkb: boundaries.wkb(i))
            if !source.isValid { source = try source.madeValid() }
            var polygons = try rings(
                of: Self.onLattice(source.simplified(preservingTopology: tolerance), decimals: decimals),
                decimals: decimals)
            if polygons.isEmpty {
                // Too small for the tolerance: keep the shape as it is, at 10 m.
                polygons = try rings(of: Self.onLattice(source, decimals: 4), decimals: 4)
            }
            guard !polygons.isEmpty else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out += Array(#"{"type":"Feature","properties":{"iso2":"#.utf8)
            out += Array((country.iso2.map { "\"\($0)\"" } ?? "null").utf8)
            out += Array(#","id":""#.utf8) + Array(country.id.utf8)
            out += Array(#"","name":"#.utf8) + Self.jsonString(country.name)
            out += Array(#","news":"#.utf8) + Array((country.hasNews ? "true" : "false").utf8)
            out += Array(#"},"geometry":{"type":"MultiPolygon","coordinates":["#.utf8)
            for (p, polygon) in polygons.enumerated() {
                if p > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "["))
                for (r, ring) in polygon.rings.enumerated() {
                    if r > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(UInt8(ascii: "["))
                    for v in stride(from: 0, to: ring.count, by: 2) {
                        if v > 0 { out.append(UInt8(ascii: ",")) }
                        out += Array("[\(Self.fixed(ring[v], polygon.decimals)),\(Self.fixed(ring[v + 1], polygon.decimals))]".utf8)
                    }
                    out.append(UInt8(ascii: "]"))
                }
                out.append(UInt8(ascii: "]"))
            }
            out += Array("]}}".utf8)
        }
        out += Array("]}\n".utf8)
        return out
    }

    /// A polygon as rings of integer coordinates in units of 10^-decimals degrees, the shell
    /// first, each closed and without repeated vertices.
    struct Polygon {
        var rings: [[Int]]
        var decimals: Int
        var area: Double
    }

    /// `geometry` snapped to the lattice of 10^-decimals degrees by GEOS's snap rounding, which
    /// keeps it valid: rounding the coordinates alone made rings of the US, Canada, Russia and
    /// 24 others cross themselves where two coasts pass closer than the lattice step.
    static func onLattice(_ geometry: Geometry, decimals: Int) throws(GEOSError) -> Geometry {
        var step = 1.0
        for _ in 0..<decimals { step /= 10 }
        return try geometry.snapped(toGrid: step)
    }

    /// The polygons of `geometry` (already on the lattice, see ``onLattice(_:decimals:)``) as
    /// integer rings, keeping those of at least ``minimumPolygonArea`` and always the largest;
    /// rings that collapse to fewer than three distinct vertices on the lattice are dropped (a
    /// collapsed shell drops its polygon). Shells come out counter-clockwise and holes
    /// clockwise, RFC 7946's right-hand rule (GEOS and Natural Earth have them the other way).
    func rings(of geometry: Geometry, decimals: Int) -> [Polygon] {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        var polygons: [Polygon] = []
        var shellLost = false
        geometry.forEachRing { _, isHole, xy in
            if !isHole { shellLost = false }
            guard !shellLost else { return }
            var ring: [Int] = []
            ring.reserveCapacity(xy.count)
            for i in stride(from: 0, to: xy.count, by: 2) {
                let x = Int((xy[i] * scale).rounded()), y = Int((xy[i + 1] * scale).rounded())
                if ring.count >= 2, ring[ring.count - 2] == x, ring[ring.count - 1] == y { continue }
                ring += [x, y]
            }
            guard ring.count >= 8 else {
                if !isHole { shellLost = true }
                return
            }
            let signed = Self.signedArea(ring)
            if (signed < 0) != isHole { ring = Self.reversed(ring) }
            let area = abs(signed) / (scale * scale)
            if isHole {
                if area >= minimumPolygonArea, !polygons.isEmpty {
                    polygons[polygons.count - 1].rings.append(ring)
                }
            } else {
                polygons.append(Polygon(rings: [ring], decimals: decimals, area: area))
            }
        }
        guard let largest = polygons.indices.max(by: { polygons[$0].area < polygons[$1].area }) else { return [] }
        return polygons.enumerated().filter { $0.offset == largest || $0.element.area >= minimumPolygonArea }.map(\.element)
    }

    /// Twice the signed area of a closed ring of interleaved x, y lattice coordinates.
    static func signedArea(_ ring: [Int]) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: ring.count - 2, by: 2) {
            sum += Double(ring[i]) * Double(ring[i + 3]) - Double(ring[i + 2]) * Double(ring[i + 1])
        }
        return sum / 2
    }

    /// The ring of interleaved x, y coordinates run the other way.
    static func reversed<T>(_ ring: [T]) -> [T] {
        var out: [T] = []
        out.reserveCapacity(ring.count)
        for i in stride(from: ring.count - 2, through: 0, by: -2) { out += [ring[i], ring[i + 1]] }
        return out
    }

    /// `value / 10^decimals` in the shortest decimal form: 235 with 2 decimals is "2.35", 240 is "2.4".
    static func fixed(_ value: Int, _ decimals: Int) -> String {
        guard decimals > 0 else { return String(value) }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let magnitude = abs(value)
        var fraction = String(magnitude % scale)
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let whole = (value < 0 ? "-" : "") + String(magnitude / scale)
        return fraction.isEmpty ? whole : whole + "." + fraction
    }

    static func jsonString(_ s: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), b]
            case 0..<0x20: out += Array(String(format: b).utf8)
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}

extension String {
    /// `\u00XX` for a control byte.
    fileprivate init(format byte: UInt8) {
        let hex = Array("0123456789abcdef")
        self = "\\u00" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
    }
}

import CGEOS

// Ownership rules for everything GEOS in GeoNews. They are written here and nowhere else.
//
// 1. `GEOSContext` owns one `GEOSContextHandle_t` (made by `GEOS_init_r`, finished in its
//    deinit). Every object below keeps a strong reference to the context it was made in, so a
//    context always outlives what was made in it.
// 2. `Geometry` owns its `GEOSGeometry*` and destroys it in deinit. Every GEOS call that
//    returns a new geometry (`GEOSWKBReader_read_r`, `GEOSClipByRect_r`,
//    `GEOSGeom_createRectangle_r`, `GEOSGeom_createPointFromXY_r`, the overlay operations
//    `GEOSIntersection_r`, `GEOSDifference_r`, `GEOSUnaryUnion_r`, `GEOSBoundary_r`,
//    `GEOSMakeValid_r`, `GEOSBuffer_r`, `GEOSGeom_setPrecision_r`, `GEOSTopologyPreserveSimplify_r`,
//    `GEOSPointOnSurface_r` and `GEOSGeom_clone_r`) is
//    wrapped at once. The WKB buffer of `GEOSWKBWriter_write_r` and the string of
//    `GEOSisValidReason_r` are copied and freed with `GEOSFree_r` at once. We never hand an owned
//    geometry to a GEOS constructor that would take it over: `GEOSGeom_createCollection_r` gets
//    clones. The one chain of constructors that does take ownership is building a polygon
//    from coordinates: `GEOSCoordSeq_copyFromBuffer_r` makes a sequence that
//    `GEOSGeom_createLinearRing_r` takes over, and `GEOSGeom_createPolygon_r` takes over the
//    rings (not the array holding the holes); none of these intermediates is ever wrapped.
// 3. Sub-geometries, rings and coordinate sequences (`GEOSGetGeometryN_r`,
//    `GEOSGetExteriorRing_r`, `GEOSGetInteriorRingN_r`, `GEOSGeom_getCoordSeq_r`) are borrowed
//    from their parent. They are only read inside `Geometry.forEachRing`, while the parent is
//    alive, and are never wrapped in an owning object.
// 4. `PreparedGeometry` borrows its source geometry and keeps a strong reference to it, so the
//    source is destroyed after the prepared form.
// 5. GEOS contexts are not thread-safe: a context and everything made in it belong to one thread
//    at a time. None of these types is Sendable; each worker makes its own context. Nothing that
//    answers a query uses GEOS: this module is linked only by geonews-index, the tests and the
//    benchmarks, never by GeoNewsBoundaries or a binary that resolves positions.

/// Something GEOS reported as an error.
public struct GEOSError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let message: String
    public var description: String { "GEOS \(operation) failed: \(message)" }
}

/// One reentrant GEOS context.
final class GEOSContext {
    let handle: GEOSContextHandle_t
    private let messages = MessageBox()

    init() {
        handle = GEOS_init_r()
        let box = Unmanaged.passUnretained(messages).toOpaque()
        GEOSContext_setErrorMessageHandler_r(
            handle,
            { message, userdata in
                guard let message, let userdata else { return }
                Unmanaged<MessageBox>.fromOpaque(userdata).takeUnretainedValue().last = String(cString: message)
            }, box)
        GEOSContext_setNoticeMessageHandler_r(handle, { _, _ in }, nil)
    }

    deinit { GEOS_finish_r(handle) }

    /// Wraps a freshly returned geometry, or throws GEOS's last error message when it is NULL.
    func own(_ pointer: OpaquePointer?, _ operation: String) throws(GEOSError) -> Geometry {
        guard let pointer else { throw error(operation) }
        return Geometry(context: self, pointer: pointer)
    }

    func error(_ operation: String) -> GEOSError {
        GEOSError(operation: operation, message: messages.last ?? "no message")
    }

    /// Parses one WKB blob (either byte order).
    func geometry(wkb: UnsafeRawBufferPointer) throws(GEOSError) -> Geometry {
        let reader = GEOSWKBReader_create_r(handle)
        defer { GEOSWKBReader_destroy_r(handle, reader) }
        let base = wkb.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return try own(GEOSWKBReader_read_r(handle, reader, base, wkb.count), "WKB read")
    }

    func rectangle(xmin: Double, ymin: Double, xmax: Double, ymax: Double) throws(GEOSError) -> Geometry {
        try own(GEOSGeom_createRectangle_r(handle, xmin, ymin, xmax, ymax), "rectangle")
    }

    func point(x: Double, y: Double) throws(GEOSError) -> Geometry {
        try own(GEOSGeom_createPointFromXY_r(handle, x, y), "point")
    }

    /// A polygon from open rings of interleaved integer (x, y) coordinates, each multiplied
    /// by `scale`: the first ring is the shell, the others holes. Rings are closed here.
    func polygon(rings: [UnsafeBufferPointer<Int32>], scale: Double) throws(GEOSError) -> Geometry {
        try polygon(
            closedRings: rings.map { ring in
                let n = ring.count / 2
                var xy = [Double](repeating: 0, count: 2 * (n + 1))
                for i in 0..<(2 * n) { xy[i] = Double(ring[i]) * scale }
                xy[2 * n] = xy[0]
                xy[2 * n + 1] = xy[1]
                return xy
            })
    }

    /// A polygon from closed rings of interleaved (x, y) coordinates, taken as they are: the
    /// first ring is the shell, the others holes.
    func polygon(closedRings rings: [[Double]]) throws(GEOSError) -> Geometry {
        var made: [OpaquePointer] = []
        for xy in rings {
            let n = xy.count / 2 - 1
            let sequence = xy.withUnsafeBufferPointer { GEOSCoordSeq_copyFromBuffer_r(handle, $0.baseAddress, UInt32(n + 1), 0, 0) }
            guard let sequence, let linear = GEOSGeom_createLinearRing_r(handle, sequence) else {
                for r in made { GEOSGeom_destroy_r(handle, r) }
                throw error("linear ring")
            }
            made.append(linear)
        }
        guard let shell = made.first else { throw GEOSError(operation: "polygon", message: "no rings") }
        var holes: [OpaquePointer?] = made.dropFirst().map { $0 }
        let polygon = holes.withUnsafeMutableBufferPointer {
            GEOSGeom_createPolygon_r(handle, shell, $0.baseAddress, UInt32($0.count))
        }
        return try own(polygon, "polygon")
    }

    /// A MultiPolygon of clones of `parts`, which must be polygons that do not overlap.
    func multiPolygon(_ parts: [Geometry]) throws(GEOSError) -> Geometry {
        try collection(parts, type: GEOS_MULTIPOLYGON)
    }

    /// The union of `parts` (any polygonal geometries) as one dissolved geometry.
    func union(_ parts: [Geometry]) throws(GEOSError) -> Geometry {
        try collection(parts, type: GEOS_GEOMETRYCOLLECTION).unaryUnion()
    }

    /// A GeometryCollection of clones of `parts`, as they are (no dissolving).
    func collection(_ parts: [Geometry]) throws(GEOSError) -> Geometry {
        try collection(parts, type: GEOS_GEOMETRYCOLLECTION)
    }

    private func collection(_ parts: [Geometry], type: GEOSGeomTypes) throws(GEOSError) -> Geometry {
        var clones: [OpaquePointer?] = []
        for part in parts {
            guard let c = GEOSGeom_clone_r(handle, part.pointer) else {
                for c in clones { GEOSGeom_destroy_r(handle, c) }
                throw error("clone")
            }
            clones.append(c)
        }
        let made = clones.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(handle, Int32(type.rawValue), $0.baseAddress, UInt32($0.count))
        }
        return try own(made, "collection")
    }
}

private final class MessageBox {
    var last: String?
}

/// An owned GEOS geometry.
final class Geometry {
    let context: GEOSContext
    let pointer: OpaquePointer

    fileprivate init(context: GEOSContext, pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    deinit { GEOSGeom_destroy_r(context.handle, pointer) }

    var isEmpty: Bool { GEOSisEmpty_r(context.handle, pointer) == 1 }

    var area: Double {
        var a = 0.0
        GEOSArea_r(context.handle, pointer, &a)
        return a
    }

    /// The bounding box as (xmin, ymin, xmax, ymax) degrees.
    var envelope: (xmin: Double, ymin: Double, xmax: Double, ymax: Double) {
        var xmin = 0.0, ymin = 0.0, xmax = 0.0, ymax = 0.0
        GEOSGeom_getExtent_r(context.handle, pointer, &xmin, &ymin, &xmax, &ymax)
        return (xmin, ymin, xmax, ymax)
    }

    /// The part of this geometry inside the rectangle, by GEOS's fast rectangle clipper.
    func clipped(xmin: Double, ymin: Double, xmax: Double, ymax: Double) throws(GEOSError) -> Geometry {
        try context.own(GEOSClipByRect_r(context.handle, pointer, xmin, ymin, xmax, ymax), "clip by rectangle")
    }

    /// The part inside the rectangle: GEOS's fast rectangle clipper, or, where it fails (it
    /// can build a ring of three points from a polygon that touches itself), the overlay
    /// intersection of the geometry made valid.
    func clippedRobustly(xmin: Double, ymin: Double, xmax: Double, ymax: Double) throws(GEOSError) -> Geometry {
        do {
            return try clipped(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
        } catch {
            return try overlayClip(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
        }
    }

    private func overlayClip(xmin: Double, ymin: Double, xmax: Double, ymax: Double) throws(GEOSError) -> Geometry {
        let valid = isValid ? self : try madeValid()
        return try valid.intersection(try context.rectangle(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax))
    }

    /// The geometry clipped to each of `rectangles`, which must tile a region holding all of it
    /// (the cells of a grid over its extent). GEOS's rectangle clipper answers, for some rings
    /// that run along a rectangle's side, the rest of the rectangle instead of the ring's
    /// inside; so the pieces' areas must add up to the geometry's, or every piece is taken from
    /// the overlay intersection instead.
    func clipped(toTiling rectangles: [(xmin: Double, ymin: Double, xmax: Double, ymax: Double)]) throws(GEOSError) -> [Geometry] {
        var pieces: [Geometry] = []
        var total = 0.0
        for r in rectangles {
            let piece = try clippedRobustly(xmin: r.xmin, ymin: r.ymin, xmax: r.xmax, ymax: r.ymax)
            total += piece.area
            pieces.append(piece)
        }
        let whole = area
        guard abs(total - whole) > 1e-9 * whole + 1e-18 else { return pieces }
        pieces = []
        for r in rectangles { pieces.append(try overlayClip(xmin: r.xmin, ymin: r.ymin, xmax: r.xmax, ymax: r.ymax)) }
        return pieces
    }

    /// Calls `body` with each polygon of this geometry (itself, or the parts of a collection,
    /// nested collections included), as owned clones.
    func forEachPolygon(_ body: (Geometry) throws(GEOSError) -> Void) throws(GEOSError) {
        if isPolygon { return try body(self) }
        for i in 0..<partCount { try part(i).forEachPolygon(body) }
    }

    var length: Double {
        var l = 0.0
        GEOSLength_r(context.handle, pointer, &l)
        return l
    }

    var isValid: Bool { GEOSisValid_r(context.handle, pointer) == 1 }

    /// A point that GEOS guarantees to lie in the geometry's interior (or on it, for a
    /// degenerate one), as (x, y) degrees.
    func pointOnSurface() throws(GEOSError) -> (x: Double, y: Double) {
        let point = try context.own(GEOSPointOnSurface_r(context.handle, pointer), "point on surface")
        var x = 0.0, y = 0.0
        guard GEOSGeomGetX_r(context.handle, point.pointer, &x) == 1, GEOSGeomGetY_r(context.handle, point.pointer, &y) == 1 else {
            throw context.error("point coordinates")
        }
        return (x, y)
    }

    /// GEOS's reason why the geometry is not valid ("Self-intersection[x y]"), or "Valid Geometry".
    var validityReason: String {
        guard let reason = GEOSisValidReason_r(context.handle, pointer) else { return "unknown" }
        defer { GEOSFree_r(context.handle, reason) }
        return String(cString: reason)
    }

    var isPolygon: Bool { GEOSGeomTypeId_r(context.handle, pointer) == Int32(GEOS_POLYGON.rawValue) }

    /// The number of parts of a collection (1 for a single geometry).
    var partCount: Int { Int(GEOSGetNumGeometries_r(context.handle, pointer)) }

    /// An owned copy of part `i` of a collection.
    func part(_ i: Int) throws(GEOSError) -> Geometry {
        guard let borrowed = GEOSGetGeometryN_r(context.handle, pointer, Int32(i)) else { throw context.error("part") }
        return try context.own(GEOSGeom_clone_r(context.handle, borrowed), "clone")
    }

    func intersection(_ other: Geometry) throws(GEOSError) -> Geometry {
        try context.own(GEOSIntersection_r(context.handle, pointer, other.pointer), "intersection")
    }

    func difference(_ other: Geometry) throws(GEOSError) -> Geometry {
        try context.own(GEOSDifference_r(context.handle, pointer, other.pointer), "difference")
    }

    /// The union of all parts of this geometry (a collection becomes one dissolved geometry).
    func unaryUnion() throws(GEOSError) -> Geometry {
        try context.own(GEOSUnaryUnion_r(context.handle, pointer), "union")
    }

    /// The rings of a polygonal geometry as lines.
    func boundary() throws(GEOSError) -> Geometry {
        try context.own(GEOSBoundary_r(context.handle, pointer), "boundary")
    }

    /// Little-endian WKB of this geometry (GEOS's buffer is copied, then freed with GEOSFree_r).
    func wkb() -> [UInt8] {
        let h = context.handle
        let writer = GEOSWKBWriter_create_r(h)
        defer { GEOSWKBWriter_destroy_r(h, writer) }
        GEOSWKBWriter_setByteOrder_r(h, writer, Int32(GEOS_WKB_NDR.rawValue))
        var size = 0
        guard let buffer = GEOSWKBWriter_write_r(h, writer, pointer, &size) else { return [] }
        defer { GEOSFree_r(h, buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: size))
    }

    /// This geometry snapped to a grid of `gridSize` (degrees here), kept valid (GEOS's snap
    /// rounding), so that every vertex is an integer multiple of the grid.
    func snapped(toGrid gridSize: Double) throws(GEOSError) -> Geometry {
        try context.own(GEOSGeom_setPrecision_r(context.handle, pointer, gridSize, 0), "set precision")
    }

    /// This geometry grown by `distance` (degrees here), round corners of 8 segments a quarter.
    func buffered(by distance: Double) throws(GEOSError) -> Geometry {
        try context.own(GEOSBuffer_r(context.handle, pointer, distance, 8), "buffer")
    }

    /// A copy in GEOS's normal form (shells clockwise, holes counter-clockwise, parts in a fixed
    /// order): ``clipped(xmin:ymin:xmax:ymax:)`` decides which corners of the rectangle lie
    /// inside from the rings' orientation.
    func normalized() throws(GEOSError) -> Geometry {
        let copy = try context.own(GEOSGeom_clone_r(context.handle, pointer), "clone")
        guard GEOSNormalize_r(context.handle, copy.pointer) == 0 else { throw context.error("normalize") }
        return copy
    }

    func madeValid() throws(GEOSError) -> Geometry {
        try context.own(GEOSMakeValid_r(context.handle, pointer), "make valid")
    }

    /// Douglas-Peucker simplification that keeps rings simple and holes inside their shells.
    /// `tolerance` is in the geometry's units (degrees here).
    func simplified(preservingTopology tolerance: Double) throws(GEOSError) -> Geometry {
        try context.own(GEOSTopologyPreserveSimplify_r(context.handle, pointer, tolerance), "simplify")
    }

    func prepared() throws(GEOSError) -> PreparedGeometry {
        guard let p = GEOSPrepare_r(context.handle, pointer) else { throw context.error("prepare") }
        return PreparedGeometry(source: self, pointer: p)
    }

    /// Distance in the geometry's own units (degrees here) to another geometry.
    func distance(to other: Geometry) throws(GEOSError) -> Double {
        var d = 0.0
        guard GEOSDistance_r(context.handle, pointer, other.pointer, &d) == 1 else { throw context.error("distance") }
        return d
    }

    /// Calls `body` with each polygon ring's coordinates as interleaved x, y doubles, closed
    /// (first vertex repeated last). Non-polygonal parts (lines, points that a clip may leave
    /// behind) are skipped. `polygon` counts the polygons seen, so holes can be told apart.
    func forEachRing(_ body: (_ polygon: Int, _ isHole: Bool, _ xy: UnsafeBufferPointer<Double>) -> Void) {
        let h = context.handle
        var scratch: [Double] = []
        var polygonNumber = 0
        func ring(_ r: OpaquePointer, hole: Bool) {
            guard let seq = GEOSGeom_getCoordSeq_r(h, r) else { return }
            var size: UInt32 = 0
            GEOSCoordSeq_getSize_r(h, seq, &size)
            guard size >= 4 else { return }
            scratch = [Double](repeating: 0, count: Int(size) * 2)
            scratch.withUnsafeMutableBufferPointer { buf in
                _ = GEOSCoordSeq_copyToBuffer_r(h, seq, buf.baseAddress!, 0, 0)
            }
            scratch.withUnsafeBufferPointer { body(polygonNumber, hole, $0) }
        }
        func visit(_ g: OpaquePointer) {
            let type = GEOSGeomTypeId_r(h, g)
            if type == Int32(GEOS_POLYGON.rawValue) {
                if GEOSisEmpty_r(h, g) == 1 { return }
                if let outer = GEOSGetExteriorRing_r(h, g) { ring(outer, hole: false) }
                let holes = GEOSGetNumInteriorRings_r(h, g)
                if holes > 0 {
                    for i in 0..<holes { if let r = GEOSGetInteriorRingN_r(h, g, i) { ring(r, hole: true) } }
                }
                polygonNumber += 1
            } else if type == Int32(GEOS_MULTIPOLYGON.rawValue) || type == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) {
                let n = GEOSGetNumGeometries_r(h, g)
                if n > 0 { for i in 0..<n { if let part = GEOSGetGeometryN_r(h, g, i) { visit(part) } } }
            }
        }
        visit(pointer)
    }
}

/// A prepared geometry for repeated predicates against one polygon set.
final class PreparedGeometry {
    let source: Geometry
    let pointer: OpaquePointer

    fileprivate init(source: Geometry, pointer: OpaquePointer) {
        self.source = source
        self.pointer = pointer
    }

    deinit { GEOSPreparedGeom_destroy_r(source.context.handle, pointer) }

    /// True when `other` has at least one point in common with this geometry (boundary included).
    func intersects(_ other: Geometry) -> Bool {
        GEOSPreparedIntersects_r(source.context.handle, pointer, other.pointer) == 1
    }

    /// True when the interiors meet and neither geometry holds the other.
    func overlaps(_ other: Geometry) -> Bool {
        GEOSPreparedOverlaps_r(source.context.handle, pointer, other.pointer) == 1
    }

    /// True when `other` lies in the interior of this geometry (boundary excluded).
    func contains(_ other: Geometry) -> Bool {
        GEOSPreparedContains_r(source.context.handle, pointer, other.pointer) == 1
    }

    /// True when every point of `other` lies in this geometry (boundary included).
    func covers(_ other: Geometry) -> Bool {
        GEOSPreparedCovers_r(source.context.handle, pointer, other.pointer) == 1
    }
}

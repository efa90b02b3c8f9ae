import CGEOS

// Ownership rules for everything GEOS in GeoNews. They are written here and nowhere else.
//
// 1. `GEOSContext` owns one `GEOSContextHandle_t` (made by `GEOS_init_r`, finished in its
//    deinit). Every object below keeps a strong reference to the context it was made in, so a
//    context always outlives what was made in it.
// 2. `Geometry` owns its `GEOSGeometry*` and destroys it in deinit. Every GEOS call that
//    returns a new geometry (`GEOSWKBReader_read_r`, `GEOSClipByRect_r`,
//    `GEOSGeom_createRectangle_r`, `GEOSGeom_createPointFromXY_r`,
//    `GEOSTopologyPreserveSimplify_r`) is wrapped at once. We never
//    hand an owned geometry to a GEOS constructor that would take it over.
// 3. Sub-geometries, rings and coordinate sequences (`GEOSGetGeometryN_r`,
//    `GEOSGetExteriorRing_r`, `GEOSGetInteriorRingN_r`, `GEOSGeom_getCoordSeq_r`) are borrowed
//    from their parent. They are only read inside `Geometry.forEachRing`, while the parent is
//    alive, and are never wrapped in an owning object.
// 4. `PreparedGeometry` borrows its source geometry and keeps a strong reference to it, so the
//    source is destroyed after the prepared form.
// 5. GEOS contexts are not thread-safe: a context and everything made in it belong to one thread
//    at a time. None of these types is Sendable; each worker makes its own context. The query
//    hot path (`CountryIndex`) uses no GEOS at all.

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
        GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
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

    /// True when `other` lies in the interior of this geometry (boundary excluded).
    func contains(_ other: Geometry) -> Bool {
        GEOSPreparedContains_r(source.context.handle, pointer, other.pointer) == 1
    }

    /// True when every point of `other` lies in this geometry (boundary included).
    func covers(_ other: Geometry) -> Bool {
        GEOSPreparedCovers_r(source.context.handle, pointer, other.pointer) == 1
    }
}

import GeoNews

/// Why a boundary's WKB could not be walked.
enum WKBError: Error, CustomStringConvertible {
    case truncated(entry: Int, offset: Int)
    case unsupported(entry: Int, geometryType: UInt32)

    var description: String {
        switch self {
        case .truncated(let e, let o): return "boundaries.bin entry \(e): WKB ends early at byte \(o)"
        case .unsupported(let e, let t): return "boundaries.bin entry \(e): WKB geometry type \(t) is not a 2D Polygon or MultiPolygon"
        }
    }
}

/// Every vertex of every ring of one country's boundary, read straight from its WKB
/// (2D Polygon or MultiPolygon, either byte order).
func boundaryVertices(_ wkb: UnsafeRawBufferPointer, entry: Int) throws(WKBError) -> [(x: Double, y: Double)] {
    var offset = 0
    var vertices: [(x: Double, y: Double)] = []
    func need(_ n: Int) throws(WKBError) {
        guard offset + n <= wkb.count else { throw .truncated(entry: entry, offset: offset) }
    }
    func u32(_ little: Bool) throws(WKBError) -> UInt32 {
        try need(4)
        let raw = wkb.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return little ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
    }
    func f64(_ little: Bool) throws(WKBError) -> Double {
        try need(8)
        let raw = wkb.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: little ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw))
    }
    func geometry() throws(WKBError) {
        try need(1)
        let little = wkb[offset] == 1
        offset += 1
        let type = try u32(little)
        switch type {
        case 3:
            for _ in 0..<(try u32(little)) {
                for _ in 0..<(try u32(little)) {
                    let x = try f64(little)
                    vertices.append((x, try f64(little)))
                }
            }
        case 6:
            for _ in 0..<(try u32(little)) { try geometry() }
        default:
            throw .unsupported(entry: entry, geometryType: type)
        }
    }
    try geometry()
    return vertices
}

import CZlib
import GeoNewsData

/// `region-edges.bin`: a ``RegionEdgeIndex`` kept beside the area index, so that a batch or a
/// server maps it instead of building it at every start (about 75 ms). Built by the first run
/// that needs it and written through a temporary file and a rename, as `places.bin` is; a file
/// that names another `regions.bin` (its size and CRC-32), fails its own CRC-32 or breaks a
/// bound is built again. Little-endian throughout.
///
/// ```
/// header (64 bytes)
///   0  magic "GNREDGE1"
///   8  u32 version (1), u32 part count P
///  16  u64 size of the regions.bin it was built from
///  24  u32 that file's CRC-32, u32 the CRC-32 of everything after the header
///  32  u32 band offsets B, u32 band edges E, u32 cell offsets C, u32 cell edges F
///  48  16 bytes of zeros
/// parts         P × 12 × i64: west, south, east, north, band height, bands, first band offset,
///               cell width, cell height, columns, rows, first cell offset
/// band offsets  B × i32, band edges E × i32, cell offsets C × i32, cell edges F × i32
/// whole         1440 × 720 × u32 (``RegionEdgeIndex/whole``)
/// ```
extension RegionEdgeIndex {
    /// The file's name in the area index folder.
    static let fileName = "region-edges.bin"
    static let magic: [UInt8] = Array("GNREDGE1".utf8)
    static let version: UInt32 = 1
    static let headerBytes = 64
    static let partFields = 12

    /// The index of `index`: mapped from `folder`'s file when it was built from the same
    /// `regions.bin`, else built now and written there for the next run (kept in memory alone
    /// where the folder cannot be written, or with no folder).
    static func load(for index: RegionIndex, folder: String?) -> RegionEdgeIndex {
        guard let folder else { return RegionEdgeIndex(index) }
        return loadOrBuild(for: index, folder: folder).index
    }

    /// ``load(for:folder:)`` in `folder`, and whether the file there now holds it.
    ///
    /// Summing `regions.bin` and building read every page of it: the pages are given back from
    /// the resident set after (they stay in the page cache), so that a process holds only
    /// those its answers read (a server, a few regional batches: not the 11 MB at once).
    static func loadOrBuild(for index: RegionIndex, folder: String) -> (index: RegionEdgeIndex, kept: Bool) {
        let source = withExtendedLifetime(index) { (bytes: UInt64(index.bytes.count), crc: crc32(index.bytes)) }
        defer { index.releaseResidentPages() }
        let path = folder + "/" + fileName
        if let file = try? MappedFile(path: path), let kept = decode(file.bytes, for: index, source: source) {
            return (kept, true)
        }
        let built = RegionEdgeIndex(index)
        return (built, DerivedFile.store(built.encoded(source: source), at: path))
    }

    /// The index in the file's layout, for a `regions.bin` of this size and CRC-32.
    func encoded(source: (bytes: UInt64, crc: UInt32)) -> [UInt8] {
        var body: [UInt8] = []
        let cells = Self.wholeColumns * Self.wholeRows
        body.reserveCapacity(
            8 * Self.partFields * parts.count + 4 * (bandOffsets.count + bandEdges.count + cellOffsets.count + cellEdges.count + cells))
        func append<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { body.append(contentsOf: $0) } }
        for p in parts {
            for v in [p.west, p.south, p.east, p.north, p.bandHeight] { append(v) }
            for v in [p.bands, p.bandStart] { append(Int64(v)) }
            for v in [p.cellWidth, p.cellHeight] { append(v) }
            for v in [p.columns, p.rows, p.cellStart] { append(Int64(v)) }
        }
        for table in [bandOffsets, bandEdges, cellOffsets, cellEdges] { for v in table { append(v) } }
        for v in whole { append(v) }
        var out = Self.magic
        out.reserveCapacity(Self.headerBytes + body.count)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        put(Self.version)
        put(UInt32(parts.count))
        put(source.bytes)
        put(source.crc)
        put(body.withUnsafeBytes { Self.crc32($0) })
        for count in [bandOffsets.count, bandEdges.count, cellOffsets.count, cellEdges.count] { put(UInt32(count)) }
        out.append(contentsOf: repeatElement(0, count: Self.headerBytes - out.count))
        return out + body
    }

    /// The index in `bytes` when they are a whole file of this layout for `index`'s
    /// `regions.bin` (`source`), every offset and edge inside its table; `nil` otherwise.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, for index: RegionIndex, source: (bytes: UInt64, crc: UInt32)
    )
        -> RegionEdgeIndex?
    {
        func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        guard bytes.count >= headerBytes, Array(bytes[0..<8]) == magic, u32(8) == Int(version), u32(12) == index.parts,
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) == source.bytes,
            u32(24) == Int(source.crc)
        else { return nil }
        let counts = (u32(32), u32(36), u32(40), u32(44))
        let cells = wholeColumns * wholeRows
        let partBytes = 8 * partFields * index.parts
        guard bytes.count == headerBytes + partBytes + 4 * (counts.0 + counts.1 + counts.2 + counts.3 + cells),
            u32(28) == Int(crc32(UnsafeRawBufferPointer(rebasing: bytes[headerBytes...])))
        else { return nil }
        var at = headerBytes
        func i64() -> Int64 {
            defer { at += 8 }
            return Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: Int64.self))
        }
        func table<T: FixedWidthInteger>(_ count: Int, _: T.Type) -> [T] {
            defer { at += 4 * count }
            #if _endian(little)
            // The file's byte order is the machine's: one copy of the bytes.
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + 4 * count)]))
                initialized = count
            }
            #else
            return (0..<count).map {
                T(truncatingIfNeeded: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 4 * $0, as: Int32.self)))
            }
            #endif
        }
        var parts: [Part] = []
        parts.reserveCapacity(index.parts)
        var bandsSoFar = 0, cellsSoFar = 0
        let degrees: ClosedRange<Int64> = -200_000_000...200_000_000
        for _ in 0..<index.parts {
            let (west, south, east, north, bandHeight) = (i64(), i64(), i64(), i64(), i64())
            let (bands, bandStart, cellWidth, cellHeight) = (i64(), i64(), i64(), i64())
            let (columns, rows, cellStart) = (i64(), i64(), i64())
            // Each part's box on the sphere, its bands and cells covering it, its offsets where
            // the parts before it end: every table read below is then inside its bounds.
            guard degrees.contains(west), degrees.contains(east), degrees.contains(south), degrees.contains(north),
                west <= east, south <= north, bandHeight >= 1, cellWidth >= 1, cellHeight >= 1, (1...Int64(maxBands)).contains(bands),
                (1...Int64(maxSide)).contains(columns), (1...Int64(maxSide)).contains(rows),
                bands == (north - south) / bandHeight + 1, columns == (east - west) / cellWidth + 1,
                rows == (north - south) / cellHeight + 1, bandStart == bandsSoFar, cellStart == cellsSoFar
            else { return nil }
            bandsSoFar += Int(bands) + 1
            cellsSoFar += Int(columns * rows) + 1
            parts.append(
                Part(
                    west: west, south: south, east: east, north: north, bandHeight: bandHeight, bands: Int(bands),
                    bandStart: Int(bandStart), cellWidth: cellWidth, cellHeight: cellHeight, columns: Int(columns), rows: Int(rows),
                    cellStart: Int(cellStart)))
        }
        guard bandsSoFar == counts.0, cellsSoFar == counts.2 else { return nil }
        let bandOffsets = table(counts.0, Int32.self), bandEdges = table(counts.1, Int32.self)
        let cellOffsets = table(counts.2, Int32.self), cellEdges = table(counts.3, Int32.self)
        let whole = table(cells, UInt32.self)
        /// Whether each part's offsets in `offsets` rise within `entries` entries.
        func rising(_ offsets: [Int32], entries: Int, lists: (Part) -> (start: Int, count: Int)) -> Bool {
            parts.allSatisfy { p in
                let (start, count) = lists(p)
                return (start..<(start + count)).allSatisfy {
                    0 <= offsets[$0] && offsets[$0] <= offsets[$0 + 1] && Int(offsets[$0 + 1]) <= entries
                }
            }
        }
        let vertices = Int32(clamping: index.vertexCount)
        guard rising(bandOffsets, entries: counts.1, lists: { ($0.bandStart, $0.bands) }),
            rising(cellOffsets, entries: counts.3, lists: { ($0.cellStart, $0.columns * $0.rows) }),
            bandEdges.allSatisfy({ $0 >= 0 && $0 < vertices - 1 }),
            cellEdges.allSatisfy({ $0 >= 0 ? $0 < vertices - 1 : -($0 + 1) < vertices }),
            whole.allSatisfy({ Int($0) <= index.parts })
        else { return nil }
        return RegionEdgeIndex(
            parts: parts, bandOffsets: bandOffsets, bandEdges: bandEdges, cellOffsets: cellOffsets, cellEdges: cellEdges, whole: whole)
    }

    /// zlib's CRC-32 of `bytes`, in pieces zlib's 32-bit length takes.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt = 0
        var at = 0
        while at < bytes.count {
            let n = min(bytes.count - at, 1 << 30)
            crc = CZlib.crc32(crc, bytes.baseAddress!.advanced(by: at).assumingMemoryBound(to: UInt8.self), UInt32(n))
            at += n
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}

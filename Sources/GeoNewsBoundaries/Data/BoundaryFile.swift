import GeoNewsData

/// `boundaries.bin`: each catalogue country's boundary as a little-endian WKB MultiPolygon,
/// behind a table of offsets. Written by `Scripts/build_data.py`:
///
/// ```
/// "GNBOUND1"  u32 count  u32 0  count × (u64 offset, u64 length)  WKB blobs…
/// ```
public struct BoundaryFile: Sendable {
    public let file: MappedFile
    public let count: Int

    public init(directory: DataDirectory) throws(DataError) {
        try self.init(path: directory.file("boundaries.bin"))
    }

    public init(path: String) throws(DataError) {
        file = try MappedFile(path: path)
        guard file.bytes.count >= 16, Array(file.bytes[0..<8]) == Array("GNBOUND1".utf8) else {
            throw .corrupt(path: path, reason: "not a GeoNews boundary file (bad magic)")
        }
        count = Int(try file.integer(UInt32.self, at: 8))
        guard 16 + count * 16 <= file.bytes.count else {
            throw .corrupt(path: path, reason: "offset table runs past the end")
        }
    }

    /// The WKB bytes of entry `i` (catalogue order).
    public func wkb(_ i: Int) throws(DataError) -> UnsafeRawBufferPointer {
        let offset = Int(try file.integer(UInt64.self, at: 16 + i * 16))
        let length = Int(try file.integer(UInt64.self, at: 24 + i * 16))
        guard offset >= 16 + count * 16, length > 0, offset + length <= file.bytes.count else {
            throw .corrupt(path: file.path, reason: "entry \(i) lies outside the file")
        }
        return UnsafeRawBufferPointer(rebasing: file.bytes[offset..<(offset + length)])
    }

    /// FNV-1a 64 of the whole file, recorded in the index for provenance.
    public var fingerprint: UInt64 { CountryIndexFormat.fnv1a(file.bytes) }
}

import GeoNewsData

/// `Data/zoneinfo.bin`: the TZif rules of every zone of `timezones.json`, in its order, from
/// the same tzdata release as the borders (written by `Scripts/build_timezones.py`):
///
/// ```
/// "GNTZIF01"  u32 count  u32 0  count × (u32 offset, u32 length)  TZif files…
/// ```
public struct ZoneRulesFile: Sendable {
    public static let fileName = "zoneinfo.bin"

    public let file: MappedFile
    public let count: Int

    public init(directory: DataDirectory) throws(DataError) {
        let path = directory.file(Self.fileName)
        file = try MappedFile(path: path)
        guard file.bytes.count >= 16, Array(file.bytes[0..<8]) == Array("GNTZIF01".utf8) else {
            throw .corrupt(path: path, reason: "not a GeoNews zone-rules file (bad magic)")
        }
        count = Int(try file.integer(UInt32.self, at: 8))
        guard 16 + 8 * count <= file.bytes.count else {
            throw .corrupt(path: path, reason: "the zone table runs past the end")
        }
    }

    /// The rules of zone `zone` (the order of ``TimeZoneCatalogue/zones``).
    public func rules(ofZone zone: Int) throws(DataError) -> ZoneRules {
        guard zone >= 0 && zone < count else {
            throw .corrupt(path: file.path, reason: "no zone \(zone); the file has \(count)")
        }
        let offset = Int(try file.integer(UInt32.self, at: 16 + 8 * zone))
        let length = Int(try file.integer(UInt32.self, at: 20 + 8 * zone))
        guard offset >= 16 + 8 * count, offset + length <= file.bytes.count,
            let rules = ZoneRules(tzif: UnsafeRawBufferPointer(rebasing: file.bytes[offset..<(offset + length)]))
        else {
            throw .corrupt(path: file.path, reason: "zone \(zone) is not a readable TZif file")
        }
        return rules
    }
}

import GeoNewsData

/// The committed record of a built `area-index.bin` (`Data/area-index.json`): its size and the
/// checksum of every byte after its header, so that `geonews-index --check` can tell that the
/// index built on this machine is the one the repository describes, while loading it checks
/// only the header.
public struct AreaIndexRecord: Sendable, Equatable, Codable {
    public static let fileName = AreaIndexFormat.fileName
    public static let recordName = AreaIndexFormat.manifestName

    public let file: String
    public let bytes: Int
    /// ``CountryIndexFormat/checksum(_:)`` of the bytes after the header, as 16 hex digits.
    public let checksum: String

    /// The record of these bytes, with the checksum recomputed over them (not read from the
    /// header, so a damaged body is caught).
    public init(of data: UnsafeRawBufferPointer) {
        self.init(of: data, file: Self.fileName, headerSize: AreaIndexFormat.headerSize)
    }

    /// The record of any file of ours whose header the checksum leaves out.
    ///
    /// - Parameters:
    ///   - file: the file's name, as the record gives it (the land index has a record too).
    ///   - headerSize: the bytes of the file's header.
    package init(of data: UnsafeRawBufferPointer, file: String, headerSize: Int) {
        self.file = file
        bytes = data.count
        let body = UnsafeRawBufferPointer(rebasing: data[min(headerSize, data.count)...])
        let sum = body.count % 32 == 0 ? CountryIndexFormat.checksum(body) : 0
        let hex = String(sum, radix: 16)
        checksum = String(repeating: "0", count: 16 - hex.count) + hex
    }

    public init(of data: [UInt8]) {
        self = data.withUnsafeBytes { AreaIndexRecord(of: $0) }
    }

    /// The record of the land index's bytes (``LandIndexFormat``).
    public static func land(of data: UnsafeRawBufferPointer) -> AreaIndexRecord {
        AreaIndexRecord(of: data, file: LandIndexFormat.fileName, headerSize: CountryIndexFormat.headerSize)
    }

    /// The committed record `recordName` (the area index's by default) of `directory`.
    public static func load(from directory: DataDirectory, recordName: String = Self.recordName) throws(DataError) -> AreaIndexRecord {
        try MappedFile(path: directory.file(recordName)).decodeJSON(AreaIndexRecord.self)
    }

    /// The record as the committed file holds it.
    public var json: String {
        "{\n  \"file\": \"\(file)\",\n  \"bytes\": \(bytes),\n  \"checksum\": \"\(checksum)\"\n}\n"
    }
}

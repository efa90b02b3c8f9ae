import Foundation

@testable import GeoNewsBoundaries

/// A tiny cell tree written in either index's file format, to be damaged one field at a time.
///
/// Every root cell is sea but three: (0, 0) is wholly country (or region) 1, (1, 0) splits
/// into 2 × 2 children (south-west sea, south-east country 0, north-west and north-east an
/// empty leaf), and the rest stay sea.
struct HandMadeCellIndex {
    static let countryIDs = ["AAA", "BBB"]
    static let zoneIDs = ["Etc/UTC"]

    var root = [UInt32](repeating: CellSlot(.sea, payload: 0).raw, count: 360 * 180)
    var nodes: [UInt32] = [
        CellSlot(.sea, payload: 0).raw, CellSlot(.country, payload: 0).raw, CellSlot(.leaf, payload: 0).raw,
        CellSlot(.leaf, payload: 0).raw,
    ]
    /// One empty leaf (group count 0) and padding, in 8-byte words for the country index.
    var countryLeaves: [UInt64] = [0, 0]
    /// One empty leaf (group count 0, depth 1) and padding, in 2-byte words for the area index.
    var areaLeaves: [UInt16] = [1 << 12, 0, 0, 0]
    /// Per region, its country and zone.
    var regions: [UInt32] = [0, 0, 1, 0]
    var regionCount: UInt32 = 2
    /// Changes made to the finished bytes (after the checksum is written).
    var damage: (inout [UInt8]) -> Void = { _ in }

    init() {
        root[0] = CellSlot(.country, payload: 1).raw
        root[1] = CellSlot(nodeOf: 1, childBase: 0).raw
    }

    /// `country-index.bin`'s bytes.
    func countryIndexBytes() -> [UInt8] {
        var header = [UInt8](repeating: 0, count: CountryIndexFormat.headerSize)
        header.replaceSubrange(0..<8, with: CountryIndexFormat.magic)
        put(CountryIndexFormat.version, at: 8, in: &header)
        put(UInt32(Self.countryIDs.count), at: 12, in: &header)
        put(CountryIndexFormat.catalogueHash(Self.countryIDs), at: 16, in: &header)
        put(UInt32(25_000), at: 40, in: &header)
        put(UInt32(CountryIndexFormat.finestDepth), at: 44, in: &header)
        return file(header: header, sections: [bytes(root), bytes(nodes), bytes(countryLeaves)])
    }

    /// `area-index.bin`'s bytes.
    func areaIndexBytes() -> [UInt8] {
        var header = [UInt8](repeating: 0, count: AreaIndexFormat.headerSize)
        header.replaceSubrange(0..<8, with: AreaIndexFormat.magic)
        put(AreaIndexFormat.version, at: 8, in: &header)
        put(UInt32(Self.countryIDs.count), at: 12, in: &header)
        put(CountryIndexFormat.catalogueHash(Self.countryIDs), at: 16, in: &header)
        put(AreaIndexFormat.zoneHash(Self.zoneIDs), at: 24, in: &header)
        put(regionCount, at: 40, in: &header)
        put(UInt32(CountryIndexFormat.finestDepth), at: 44, in: &header)
        return file(header: header, sections: [bytes(root), bytes(nodes), bytes(areaLeaves), bytes(regions)])
    }

    /// The header with the sections' offsets and counts, the sections each on an 8-byte
    /// boundary, the body padded to 32 bytes, its checksum, then `damage`.
    private func file(header: [UInt8], sections: [(bytes: [UInt8], count: Int)]) -> [UInt8] {
        var out = header
        for (s, section) in sections.enumerated() {
            while out.count % 8 != 0 { out.append(0) }
            put(UInt64(out.count), at: 48 + 8 * s, in: &out)
            put(UInt32(section.count), at: 48 + 8 * sections.count + 4 * s, in: &out)
            out += section.bytes
        }
        while (out.count - header.count) % 32 != 0 { out.append(0) }
        let sum = out.withUnsafeBytes { CountryIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: $0[header.count...])) }
        put(sum, at: 32, in: &out)
        damage(&out)
        return out
    }

    private func bytes<T: FixedWidthInteger>(_ values: [T]) -> (bytes: [UInt8], count: Int) {
        (values.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } }, values.count)
    }

    private func put<T: FixedWidthInteger>(_ value: T, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + $0.count), with: $0) }
    }
}

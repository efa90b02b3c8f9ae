import GeoNewsBoundaries

// The land index's pack, written by `geonews-index --land-pack` at build time only; the data
// folder unpacks it with ``LandIndexPack`` (GeoNewsBoundaries) on first use.
extension LandIndexPack {
    /// Why an index cannot be packed.
    public struct EncodeError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The pack of a land index's bytes; refuses a file that is not one (another format, a
    /// leaf that runs past its section), and checks that the pack rebuilds it.
    public static func encode(_ index: UnsafeRawBufferPointer, path: String) throws -> [UInt8] {
        let layout = try Layout(index, path: path, fileBytes: UInt64(index.count))
        var plain: [UInt8] = [], xs: [UInt8] = [], ys: [UInt8] = [], corners: [UInt8] = []
        plain.reserveCapacity(index.count / 4)
        plain += index[0..<layout.leavesOffset]
        var previous = (x: Int64(0), y: Int64(0))
        var corner = (x: Int64(0), y: Int64(0))
        var word = 0
        func copyWords(_ n: Int) { plain += index[(layout.leavesOffset + 4 * word)..<(layout.leavesOffset + 4 * (word + n))]; word += n }
        func varint(_ v: Int64, _ out: inout [UInt8]) {
            var z = UInt64(bitPattern: (v << 1) ^ (v >> 63))
            while z >= 0x80 {
                out.append(UInt8(z & 0x7F) | 0x80)
                z >>= 7
            }
            out.append(UInt8(z))
        }
        func refuse(_ what: String) -> EncodeError { EncodeError(description: "\(path): \(what)") }
        let leafHeader = CountryIndexFormat.compactLeafHeaderWords
        while word < layout.leafWords {
            guard layout.leafWords - word >= leafHeader else { throw refuse("a leaf at word \(word) runs past the leaves") }
            let groups = Int(layout.leafWord(index, word))
            let cx = Int64(layout.leafWord(index, word + 1)), cy = Int64(layout.leafWord(index, word + 2))
            guard cx % cornerUnit == 0, cy % cornerUnit == 0 else {
                throw refuse("the corner of the leaf at word \(word) is off the 2^-\(CountryIndexFormat.finestDepth)° lattice")
            }
            copyWords(1)
            word += leafHeader - 1
            varint((cx - corner.x) / cornerUnit, &corners)
            varint((cy - corner.y) / cornerUnit, &corners)
            corner = (cx, cy)
            for _ in 0..<groups {
                guard layout.leafWords - word >= 2 else { throw refuse("a leaf group at word \(word) runs past the leaves") }
                let n = Int(layout.leafWord(index, word + 1)), rings = Int(layout.leafWord(index, word) >> 16)
                guard word + 2 + n + rings <= layout.leafWords else {
                    throw refuse("a leaf group at word \(word) runs past the leaves")
                }
                let vertices = word + 2, table = word + 2 + n
                copyWords(2)
                word = table
                copyWords(rings)
                let copies = try Copies(ringTable: (0..<rings).map { layout.leafWord(index, table + $0) }, vertexCount: n)
                for k in 0..<n {
                    let w = layout.leafWord(index, vertices + k)
                    if let source = copies.source(of: k) {
                        guard w == layout.leafWord(index, vertices + source) else {
                            throw refuse("vertex \(k) of the group at leaf word \(vertices - 2) is not the copy its ring table names")
                        }
                        continue
                    }
                    let x = cx + Int64(w & 0xFFFF), y = cy + Int64(w >> 16)
                    varint(x - previous.x, &xs)
                    varint(y - previous.y, &ys)
                    previous = (x, y)
                }
            }
        }
        plain += index[(layout.leavesOffset + 4 * layout.leafWords)...]
        let streams = [plain, xs, ys, corners]
        let packed = streams.map(AreaIndexPack.deflate)
        var out = magic
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        put(version)
        put(UInt32(streamCount))
        put(UInt64(index.count))
        put(CountryIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: index[CountryIndexFormat.headerSize...])))
        for (p, s) in zip(packed, streams) {
            put(UInt64(p.count))
            put(UInt64(s.count))
        }
        for p in packed { out += p }
        let rebuilt = try out.withUnsafeBytes { try decode(pack: $0, path: path) }
        guard rebuilt.elementsEqual(index) else { throw EncodeError(description: "\(path): the pack does not rebuild the index") }
        return out
    }
}

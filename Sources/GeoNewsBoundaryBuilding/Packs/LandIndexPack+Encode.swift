import GeoNewsBoundaries

// The land index's pack, written by `geonews-index --land-pack` at build time only; the data
// folder unpacks it with ``LandIndexPack`` (GeoNewsBoundaries) on first use.
extension LandIndexPack {
    /// Why an index cannot be packed.
    public struct EncodeError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The pack of a land index's bytes; refuses a file that is not one (a vertex off the
    /// lattice, a leaf that runs past its section), and checks that the pack rebuilds it.
    public static func encode(_ index: UnsafeRawBufferPointer, path: String) throws -> [UInt8] {
        let layout = try Layout(index, path: path, fileBytes: UInt64(index.count))
        var plain: [UInt8] = [], xs: [UInt8] = [], ys: [UInt8] = []
        plain.reserveCapacity(index.count / 4)
        plain += index[0..<layout.leavesOffset]
        var previous = (x: Int64(0), y: Int64(0))
        var word = 0
        func copyWords(_ n: Int) { plain += index[(layout.leavesOffset + 8 * word)..<(layout.leavesOffset + 8 * (word + n))]; word += n }
        func varint(_ v: Int64, _ out: inout [UInt8]) {
            var z = UInt64(bitPattern: (v << 1) ^ (v >> 63))
            while z >= 0x80 {
                out.append(UInt8(z & 0x7F) | 0x80)
                z >>= 7
            }
            out.append(UInt8(z))
        }
        while word < layout.leafWords {
            let groups = Int(layout.leafWord(index, word))
            copyWords(1)
            for _ in 0..<groups {
                let head = layout.leafWord(index, word)
                let n = Int(head >> 32), rings = Int(head >> 16 & 0xFFFF)
                guard word + 1 + 2 * n + rings <= layout.leafWords else {
                    throw EncodeError(description: "\(path): a leaf group at word \(word) runs past the leaves")
                }
                let vertices = word + 1, table = word + 1 + 2 * n
                copyWords(1)
                word = table
                copyWords(rings)
                let copies = try Copies(ringTable: (0..<rings).map { layout.leafWord(index, table + $0) }, vertexCount: n)
                for k in 0..<n {
                    let at = vertices + 2 * k
                    let x = layout.leafWord(index, at), y = layout.leafWord(index, at + 1)
                    if let source = copies.source(of: k) {
                        guard x == layout.leafWord(index, vertices + 2 * source), y == layout.leafWord(index, vertices + 2 * source + 1)
                        else {
                            throw EncodeError(
                                description:
                                    "\(path): vertex \(k) of the group at leaf word \(vertices - 1) is not the copy its ring table names")
                        }
                        continue
                    }
                    guard let qx = Int64(exactly: Double(bitPattern: x) * unit), let qy = Int64(exactly: Double(bitPattern: y) * unit)
                    else {
                        throw EncodeError(
                            description: "\(path): a vertex at leaf word \(at) is off the 2^-\(LandIndexFormat.snapBits)° lattice")
                    }
                    varint(qx - previous.x, &xs)
                    varint(qy - previous.y, &ys)
                    previous = (qx, qy)
                }
            }
        }
        plain += index[(layout.leavesOffset + 8 * layout.leafWords)...]
        let streams = [plain, xs, ys]
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

import CZlib
import GeoNewsBoundaries
import GeoNewsData

extension AreaIndexPack {
    /// Why an index could not be packed (its leaves do not parse as ``AreaIndexFormat`` says).
    public struct EncodeError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The pack of an `area-index.bin`'s bytes. Checked by rebuilding: the result always
    /// unpacks to exactly `index`.
    public static func encode(_ index: [UInt8]) throws -> [UInt8] {
        let pack = try index.withUnsafeBytes { try encodeUnchecked($0) }
        let rebuilt = try pack.withUnsafeBytes { p throws(DataError) in try decode(pack: p, path: "(pack in memory)") }
        guard rebuilt == index else { throw EncodeError(description: "the pack does not rebuild the index") }
        return pack
    }

    static func encodeUnchecked(_ b: UnsafeRawBufferPointer) throws -> [UInt8] {
        let layout: TreeLayout
        switch TreeLayout.of(indexHeader: Array(b.prefix(AreaIndexFormat.headerSize))) {
        case .success(let found): layout = found
        case .failure(let problem): throw EncodeError(description: problem.reason)
        }
        let leavesOffset = layout.leavesOffset, leavesEnd = leavesOffset + 2 * layout.leafWords
        guard leavesEnd <= b.count else { throw EncodeError(description: "leaves section outside the file") }
        func slots(at offset: Int, count: Int) -> [UInt32] {
            (0..<count).map { UInt32(littleEndian: b.loadUnaligned(fromByteOffset: offset + 4 * $0, as: UInt32.self)) }
        }
        var atlas = PackLeafAtlas()
        atlas.root = slots(at: AreaIndexFormat.headerSize, count: CountryIndexFormat.rootColumns * CountryIndexFormat.rootRows)
        atlas.nodes = slots(at: leavesOffset - 4 * layout.nodeCount, count: layout.nodeCount)
        let problem = atlas.root.withUnsafeBufferPointer { r in
            atlas.nodes.withUnsafeBufferPointer { n in
                CellTreeWalk.layoutProblem(root: r, nodes: n, leafWords: layout.leafWords, payloadCount: 1 << 30, payloadName: "region")
            }
        }
        if let problem { throw EncodeError(description: problem) }
        var streams = [[UInt8]](repeating: [], count: streamCount)
        streams[Stream.plain.rawValue] = Array(b[0..<AreaIndexFormat.headerSize]) + Array(b[leavesEnd...])
        let words = UnsafeRawBufferPointer(rebasing: b[leavesOffset..<leavesEnd])
        try LeafEncoder.scan(words, into: &atlas)
        streams[Stream.tree.rawValue] = try PackTree.encode(&atlas)
        var leafEncoder = LeafEncoder(atlas: atlas)
        try leafEncoder.encode(words, into: &streams)
        let body = UnsafeRawBufferPointer(rebasing: b[min(AreaIndexFormat.headerSize, b.count)...])
        let checksum = body.count % 32 == 0 ? CountryIndexFormat.checksum(body) : 0
        let packed = streams.map(deflate)
        let header = Header(
            unpackedBytes: UInt64(b.count), checksum: checksum, leavesOffset: UInt64(leavesOffset),
            leavesBytes: UInt64(2 * layout.leafWords),
            streams: zip(packed, streams).map { (UInt64($0.count), UInt64($1.count)) })
        return header.bytes + packed.joined()
    }

    /// zlib at its best compression.
    package static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, bytes, uLong(bytes.count), 9)
        precondition(status == Z_OK, "zlib compress2 failed: \(status)")
        return Array(out[0..<Int(size)])
    }
}

/// Splits the leaves section into the pack's streams (see ``AreaIndexPack``).
private struct LeafEncoder {
    let atlas: PackLeafAtlas
    private var points = PackSidePoints()
    /// The latest place of each (x, y) among this leaf's vertices so far (a shared edge is
    /// most often the one just given).
    private var latest: [UInt32: Int] = [:]
    /// This leaf's vertices so far, x (without its flag) in the high half.
    private var given: [UInt32] = []
    private var flagByte: UInt8 = 0
    private var flagBits = 0

    init(atlas: PackLeafAtlas) { self.atlas = atlas }

    /// Each leaf's offset and depth, in file order.
    static func scan(_ words: UnsafeRawBufferPointer, into atlas: inout PackLeafAtlas) throws {
        let word = wordReader(words)
        var i = 0
        while i < words.count / 2 {
            let head = try word(i)
            atlas.offsets.append(UInt32(i))
            atlas.depths.append(UInt8(head >> AreaIndexFormat.depthShift))
            i += 1
            for _ in 0..<Int(head & AreaIndexFormat.groupCountMask) { i += 3 + 2 * Int(try word(i + 1)) + 2 * Int(try word(i + 2)) }
        }
    }

    private static func wordReader(_ words: UnsafeRawBufferPointer) -> (Int) throws -> UInt16 {
        { i in
            guard i < words.count / 2 else { throw AreaIndexPack.EncodeError(description: "a leaf runs past the leaves section") }
            return UInt16(littleEndian: words.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))
        }
    }

    mutating func encode(_ words: UnsafeRawBufferPointer, into s: inout [[UInt8]]) throws {
        let count = words.count / 2
        let word = Self.wordReader(words)
        var i = 0
        while i < count {
            let head = try word(i)
            i += 1
            putVarint(UInt32(head), &s[AreaIndexPack.Stream.heads.rawValue])
            latest.removeAll(keepingCapacity: true)
            given.removeAll(keepingCapacity: true)
            points.begin(depth: Int(head >> AreaIndexFormat.depthShift))
            for _ in 0..<Int(head & AreaIndexFormat.groupCountMask) {
                let region = try word(i), ringCount = Int(try word(i + 1)), vertexCount = Int(try word(i + 2))
                i += 3
                for v in [region, UInt16(ringCount), UInt16(vertexCount)] { putVarint(UInt32(v), &s[AreaIndexPack.Stream.heads.rawValue]) }
                var run: [UInt32] = []
                run.reserveCapacity(vertexCount)
                for k in 0..<vertexCount {
                    let x = try word(i + 2 * k), y = try word(i + 2 * k + 1)
                    putFlag(x >> 15 == 1, &s)
                    run.append(UInt32(x & AreaIndexFormat.coordinateMask) << 16 | UInt32(y))
                }
                i += 2 * vertexCount
                encodeRun(run, &s)
                var previous: UInt16 = 0
                for k in 0..<(2 * ringCount) {
                    let w = try word(i + k)
                    putVarint(UInt32(zigzag(Int16(bitPattern: w &- previous))), &s[AreaIndexPack.Stream.rings.rawValue])
                    previous = w
                }
                i += 2 * ringCount
            }
            points.end()
        }
        if flagBits > 0 { s[AreaIndexPack.Stream.flags.rawValue].append(flagByte) }
    }

    /// One group's vertices as literals and copies of this leaf's earlier vertices.
    private mutating func encodeRun(_ run: [UInt32], _ s: inout [[UInt8]]) {
        var previous: UInt32 = 0
        var literals = 0
        var k = 0
        while k < run.count {
            var best = (length: 0, forward: false, from: 0)
            if let j = latest[run[k]] {
                for forward in [false, true] {
                    var m = 1
                    while k + m < run.count {
                        let at = forward ? j + m : j - m
                        guard at >= 0, at < given.count, given[at] == run[k + m] else { break }
                        m += 1
                    }
                    if m > best.length { best = (m, forward, j) }
                }
            }
            if best.length >= 2 {
                putVarint(UInt32(literals), &s[AreaIndexPack.Stream.ops.rawValue])
                putVarint(UInt32(given.count - best.from), &s[AreaIndexPack.Stream.ops.rawValue])
                putVarint(UInt32((best.length - 1) * 2 + (best.forward ? 1 : 0)), &s[AreaIndexPack.Stream.ops.rawValue])
                literals = 0
                for m in 0..<best.length { remember(run[k + m]) }
                previous = run[k + best.length - 1]
                k += best.length
            } else {
                let x = UInt16(run[k] >> 16), y = UInt16(truncatingIfNeeded: run[k])
                let xSide = AreaIndexPack.side(of: x), ySide = AreaIndexPack.side(of: y)
                s[AreaIndexPack.Stream.sides.rawValue].append(xSide * 3 + ySide)
                // A coordinate on a cell's side costs only its share of the sides byte; one
                // along a side, often only its place among the points already on that side.
                var alongGiven = false
                if let side = PackSide.of(sidesCode: xSide * 3 + ySide) {
                    let along = side == .west || side == .east ? y : x
                    let candidates = points.candidates(on: side, atlas: atlas)
                    if !candidates.isEmpty {
                        let i = candidates.firstIndex(of: along).map { $0 + 1 } ?? 0
                        putVarint(UInt32(i), &s[AreaIndexPack.Stream.across.rawValue])
                        alongGiven = i > 0
                    }
                }
                if xSide == 0 && !alongGiven {
                    let dx = zigzag15(Int(x) - Int(previous >> 16))
                    s[AreaIndexPack.Stream.xLow.rawValue].append(UInt8(truncatingIfNeeded: dx))
                    s[AreaIndexPack.Stream.xHigh.rawValue].append(UInt8(truncatingIfNeeded: dx >> 8))
                }
                if ySide == 0 && !alongGiven {
                    let dy = zigzag(Int16(bitPattern: y &- UInt16(truncatingIfNeeded: previous)))
                    s[AreaIndexPack.Stream.yLow.rawValue].append(UInt8(truncatingIfNeeded: dy))
                    s[AreaIndexPack.Stream.yHigh.rawValue].append(UInt8(truncatingIfNeeded: dy >> 8))
                }
                remember(run[k])
                previous = run[k]
                literals += 1
                k += 1
            }
        }
        putVarint(UInt32(literals), &s[AreaIndexPack.Stream.ops.rawValue])
    }

    private mutating func remember(_ v: UInt32) {
        latest[v] = given.count
        given.append(v)
        points.record(x: UInt16(v >> 16), y: UInt16(truncatingIfNeeded: v))
    }

    private mutating func putFlag(_ set: Bool, _ s: inout [[UInt8]]) {
        if set { flagByte |= 1 << flagBits }
        flagBits += 1
        if flagBits == 8 {
            s[AreaIndexPack.Stream.flags.rawValue].append(flagByte)
            flagByte = 0
            flagBits = 0
        }
    }
}

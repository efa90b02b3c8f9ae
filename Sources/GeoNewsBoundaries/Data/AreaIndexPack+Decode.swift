import GeoNewsData

extension AreaIndexPack {
    /// Rebuilds the file `header` describes, handing its bytes to `sink` in order; returns
    /// their checksum (as `Data/area-index.json` records it). Every count read from the pack is
    /// bounded by what is left of the file before it is acted on.
    package static func decode(
        source: PackSource, header: Header, path: String,
        sink: @escaping (UnsafeRawBufferPointer) throws(DataError) -> Void
    ) throws(DataError) -> UInt64 {
        var offset = UInt64(fullHeaderSize)
        var streams: [PackStream] = []
        for (s, sizes) in zip(Stream.allCases, header.streams) {
            streams.append(
                try PackStream(
                    source: source, range: offset..<(offset + sizes.packed), inflated: sizes.inflated,
                    name: "\(s)", path: path))
            offset += sizes.packed
        }
        let out = PackOutput(limit: header.unpackedBytes, path: path, sink: sink)
        let plain = streams[Stream.plain.rawValue]
        var indexHeader: [UInt8] = []
        for _ in 0..<AreaIndexFormat.headerSize { indexHeader.append(try plain.byte()) }
        let layout: TreeLayout
        switch TreeLayout.of(indexHeader: indexHeader) {
        case .success(let found): layout = found
        case .failure(let problem): throw .corrupt(path: path, reason: "pack plain: \(problem.reason)")
        }
        // Every slot takes at least one byte of the tree stream, so the node count is bounded
        // by what that stream declares before anything is allocated for it.
        guard UInt64(layout.leavesOffset) == header.leavesOffset, UInt64(2 * layout.leafWords) == header.leavesBytes,
            UInt64(layout.nodeCount) <= header.streams[Stream.tree.rawValue].inflated
        else {
            throw .corrupt(path: path, reason: "pack plain: the index header disagrees with the pack's (leaves, nodes)")
        }
        for i in stride(from: 0, to: indexHeader.count, by: 2) { try out.word(UInt16(indexHeader[i]) | UInt16(indexHeader[i + 1]) << 8) }
        // A second reader of the heads stream reads ahead for the leaves' offsets the tree names.
        let headsRange = streams[Stream.heads.rawValue].range
        let directory = PackLeafDirectory(
            heads: try PackStream(
                source: source, range: headsRange, inflated: header.streams[Stream.heads.rawValue].inflated, name: "heads",
                path: path),
            leafWords: header.leavesBytes / 2, path: path)
        var atlas = PackLeafAtlas()
        try PackTree.decode(streams[Stream.tree.rawValue], nodeCount: layout.nodeCount, leaves: directory, into: &atlas, path: path)
        for section in [atlas.root, atlas.nodes] {
            for slot in section {
                try out.word(UInt16(truncatingIfNeeded: slot))
                try out.word(UInt16(truncatingIfNeeded: slot >> 16))
            }
        }
        var leaves = LeafDecoder(streams: streams, atlas: atlas, out: out, path: path)
        try leaves.decode(words: header.leavesBytes / 2)
        try plain.copy(header.unpackedBytes - header.leavesOffset - header.leavesBytes, to: out)
        try out.flush()
        for s in streams { try s.finish() }
        guard out.count == header.unpackedBytes else {
            throw .corrupt(path: path, reason: "rebuilt \(out.count) bytes, not \(header.unpackedBytes)")
        }
        return out.finalChecksum
    }
}

/// Rebuilds the leaves section from the pack's streams (the inverse of the encoder's split).
private struct LeafDecoder {
    package let heads, ops, flags, xLow, xHigh, yLow, yHigh, rings, sides, across: PackStream
    package let atlas: PackLeafAtlas
    private var points = PackSidePoints()
    package let out: PackOutput
    package let path: String
    /// This leaf's vertices so far, x (without its flag) in the high half.
    private var given: [UInt32] = []
    private var flagByte: UInt8 = 0
    private var flagBits = 8

    package init(streams s: [PackStream], atlas: PackLeafAtlas, out: PackOutput, path: String) {
        typealias S = AreaIndexPack.Stream
        heads = s[S.heads.rawValue]; ops = s[S.ops.rawValue]; flags = s[S.flags.rawValue]
        xLow = s[S.xLow.rawValue]; xHigh = s[S.xHigh.rawValue]; yLow = s[S.yLow.rawValue]; yHigh = s[S.yHigh.rawValue]
        rings = s[S.rings.rawValue]; sides = s[S.sides.rawValue]
        across = s[S.across.rawValue]
        self.atlas = atlas
        self.out = out
        self.path = path
    }

    package mutating func decode(words total: UInt64) throws(DataError) {
        var left = total
        while left > 0 {
            let head = UInt16(try heads.varint())
            try out.word(head)
            left -= 1
            given.removeAll(keepingCapacity: true)
            points.begin(depth: Int(head >> AreaIndexFormat.depthShift))
            for _ in 0..<Int(head & AreaIndexFormat.groupCountMask) {
                let region = try heads.varint(), ringCount = try heads.varint(), vertexCount = try heads.varint()
                let need = 3 + 2 * UInt64(vertexCount) + 2 * UInt64(ringCount)
                guard need <= left else {
                    throw corrupt("a group of \(vertexCount) vertices and \(ringCount) rings overruns the leaves section")
                }
                for w in [region, ringCount, vertexCount] { try out.word(UInt16(w)) }
                try vertices(Int(vertexCount))
                var previous: UInt16 = 0
                for _ in 0..<(2 * Int(ringCount)) {
                    previous = previous &+ UInt16(bitPattern: unzigzag(UInt16(try rings.varint())))
                    try out.word(previous)
                }
                left -= need
            }
            points.end()
        }
    }

    /// One group's run of `count` vertices: literals and copies, as the ops stream says.
    private mutating func vertices(_ count: Int) throws(DataError) {
        var done = 0
        var previous: UInt32 = 0
        while true {
            let literals = Int(try ops.varint())
            guard literals <= count - done else { throw corrupt("\(literals) literal vertices where \(count - done) are left") }
            for _ in 0..<literals {
                let sideCode = try sides.byte()
                guard sideCode < 9 else { throw corrupt("sides code \(sideCode), not 0–8") }
                var x = UInt32(AreaIndexPack.sideCoordinates[Int(sideCode / 3)])
                var y = UInt32(AreaIndexPack.sideCoordinates[Int(sideCode % 3)])
                var alongGiven = false
                if let side = PackSide.of(sidesCode: sideCode) {
                    // Exactly one coordinate is on a side: the other may be named among the
                    // side's points.
                    let candidates = points.candidates(on: side, atlas: atlas)
                    if !candidates.isEmpty {
                        let i = Int(try across.varint())
                        guard i <= candidates.count else { throw corrupt("side point \(i) of \(candidates.count)") }
                        if i > 0 {
                            alongGiven = true
                            if side == .west || side == .east { y = UInt32(candidates[i - 1]) } else { x = UInt32(candidates[i - 1]) }
                        }
                    }
                }
                if sideCode / 3 == 0 && !alongGiven {
                    let dx = UInt16(try xLow.byte()) | UInt16(try xHigh.byte()) << 8
                    x = UInt32((Int(previous >> 16) + unzigzag15(dx)) & 0x7FFF)
                }
                if sideCode % 3 == 0 && !alongGiven {
                    let dy = UInt16(try yLow.byte()) | UInt16(try yHigh.byte()) << 8
                    y = UInt32(UInt16(truncatingIfNeeded: previous) &+ UInt16(bitPattern: unzigzag(dy)))
                }
                previous = x << 16 | y
                try emit(previous)
            }
            done += literals
            if done == count { return }
            let distance = Int(try ops.varint(limit: UInt32(Int32.max)))
            let code = Int(try ops.varint(limit: UInt32(Int32.max)))
            let length = code / 2 + 1, forward = code & 1 == 1
            let from = given.count - distance
            let last = forward ? from + length - 1 : from - (length - 1)
            guard distance >= 1, from >= 0, length <= count - done, last >= 0, last < given.count else {
                throw corrupt("a copy of \(length) vertices from \(distance) back, outside the leaf")
            }
            for m in 0..<length {
                previous = given[forward ? from + m : from - m]
                try emit(previous)
            }
            done += length
        }
    }

    private mutating func emit(_ vertex: UInt32) throws(DataError) {
        if flagBits == 8 {
            flagByte = try flags.byte()
            flagBits = 0
        }
        let flag = UInt16(flagByte >> flagBits & 1) << 15
        flagBits += 1
        given.append(vertex)
        points.record(x: UInt16(vertex >> 16), y: UInt16(truncatingIfNeeded: vertex))
        try out.word(UInt16(vertex >> 16) | flag)
        try out.word(UInt16(truncatingIfNeeded: vertex))
    }

    private func corrupt(_ reason: String) -> DataError {
        .corrupt(path: path, reason: "pack leaves: \(reason)")
    }
}

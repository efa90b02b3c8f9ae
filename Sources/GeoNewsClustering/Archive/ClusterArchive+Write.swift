extension ClusterArchive {
    /// One section to write: its element count and size, and a way to see its bytes.
    private struct Part {
        let count: Int
        let width: Int
        let bytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

        init<T>(_ table: FlatTable<T>) {
            count = table.count
            width = MemoryLayout<T>.stride
            bytes = { body in try table.withUnsafeBufferPointer { try body(UnsafeRawBufferPointer($0)) } }
        }

        init<T>(_ array: [T]) { self.init(FlatTable(ContiguousArray(array))) }
    }

    /// Writes `index` with its points' `labels` as an archive, handing the bytes to `write` in
    /// order, a section at a time (the sections are not copied first). Throws what `write` throws.
    ///
    /// - Precondition: `labels` has one id and one name entry per point of `index`.
    public static func write(
        _ index: ClusterIndex, labels: PointLabelArrays, to write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let n = index.points.count
        precondition(labels.ids.count == n && labels.names.count == n, "one label per point")
        let o = index.options
        let settings: [UInt64] = [
            UInt64(o.minZoom), UInt64(o.maxZoom), UInt64(o.minPoints), o.radius.bitPattern, o.extent.bitPattern,
            o.wrapsAntimeridian ? 1 : 0, UInt64(n), UInt64(index.clusterCount), UInt64(index.levelNodes.count),
        ]
        func texts(_ values: [String]) -> (ends: [UInt64], bytes: [UInt8]) {
            var ends: [UInt64] = [], bytes: [UInt8] = []
            ends.reserveCapacity(values.count)
            for v in values {
                bytes.append(contentsOf: v.utf8)
                ends.append(UInt64(bytes.count))
            }
            return (ends, bytes)
        }
        let ids = texts(labels.ids), names = texts(labels.names.map { $0 ?? "" })
        var parts = [
            Part(settings), Part(index.points), Part(ids.ends), Part(ids.bytes), Part(names.ends), Part(names.bytes),
            Part(labels.names.map { $0 == nil ? UInt8(0) : 1 }),
            Part(index.nodeX), Part(index.nodeY), Part(index.nodeCount), Part(index.nodeSeed),
            Part(index.clusterZoom), Part(index.clusterLatitude), Part(index.childStart), Part(index.childNodes),
            Part(index.levelGrids.map { UInt8($0.exponent) }),
        ]
        for (nodes, positions) in zip(index.levelNodes, index.levelPositions) {
            parts += [Part(nodes), Part(positions)]
        }

        var header = [UInt8](repeating: 0, count: headerSize(sections: parts.count))
        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<offset + $0.count, with: $0) }
        }
        header.replaceSubrange(0..<8, with: magic)
        put(formatVersion, at: 8)
        put(UInt32(parts.count), at: 12)
        var offset = header.count
        for (i, part) in parts.enumerated() {
            let entry = fixedHeaderSize + sectionEntrySize * i
            put(UInt64(offset), at: entry)
            put(UInt64(part.count), at: entry + 8)
            put(UInt32(part.width), at: entry + 16)
            offset += aligned(part.count * part.width)
        }
        put(UInt64(offset), at: 24)

        // The checksum covers the header (its own field as zero) and every section's padding.
        var sum = Checksum()
        header.withUnsafeBytes { sum.update(UnsafeRawBufferPointer(rebasing: $0[0..<16])) }
        sum.update(word: 0)
        header.withUnsafeBytes { sum.update(UnsafeRawBufferPointer(rebasing: $0[24...])) }
        for part in parts { try part.bytes { sum.update($0) } }
        put(sum.final, at: 16)

        let zeros = [UInt8](repeating: 0, count: 8)
        try header.withUnsafeBytes { try write($0) }
        for part in parts {
            try part.bytes { try write($0) }
            let padding = aligned(part.count * part.width) - part.count * part.width
            if padding > 0 { try zeros.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<padding])) } }
        }
    }
}

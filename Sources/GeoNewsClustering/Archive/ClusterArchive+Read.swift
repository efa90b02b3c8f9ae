import GeoNewsGeodesy

extension ClusterArchive {
    /// A cluster index and its labels read in place from `bytes`, which `owner` keeps alive
    /// (a mapped file): the tables view the bytes, nothing is copied.
    ///
    /// The header is always checked whole: magic, version, every count against the others
    /// and against its limit, every section inside the bytes. With `verify` the checksum and
    /// every stored node, seed, child and label offset are checked too, which reads every
    /// byte; without it, damage past the header is not seen, so pass `false` only for bytes
    /// this process wrote or has verified before (a damaged table can stop a query).
    ///
    /// - Throws: ``ClusterArchiveError/olderFormat(_:)`` for an archive of an earlier format,
    ///   ``ClusterArchiveError/damaged(_:)`` naming the first problem found.
    public static func read(
        _ bytes: UnsafeRawBufferPointer, owner: AnyObject, verify: Bool
    ) throws(ClusterArchiveError) -> (index: ClusterIndex, labels: PointLabelTable) {
        func damaged(_ reason: String) -> ClusterArchiveError { .damaged(reason) }
        func integer<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) throws(ClusterArchiveError) -> T {
            guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { throw damaged("truncated at byte \(offset)") }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        guard bytes.count >= fixedHeaderSize, bytes.baseAddress != nil, Array(bytes[0..<8]) == magic else {
            throw damaged("not a cluster archive (bad magic)")
        }
        let version = try integer(UInt32.self, at: 8)
        guard version >= formatVersion else { throw .olderFormat(version) }
        guard version == formatVersion else { throw damaged("format \(version) is newer than this build's \(formatVersion)") }
        guard Int(bitPattern: bytes.baseAddress) % 8 == 0 else { throw damaged("the bytes are not 8-byte aligned") }
        let sectionCount = Int(try integer(UInt32.self, at: 12))
        let maximumSections = fixedSections + 2 * (ClusterOptions.highestZoom + 2)
        guard (fixedSections...maximumSections).contains(sectionCount), (sectionCount - fixedSections) % 2 == 0 else {
            throw damaged("\(sectionCount) sections; expected 16 plus two per level, at most \(maximumSections)")
        }
        guard try integer(UInt64.self, at: 24) == UInt64(bytes.count) else {
            throw damaged("the header gives a size of \(try integer(UInt64.self, at: 24)) bytes, the file has \(bytes.count)")
        }
        if verify {
            let stored = try integer(UInt64.self, at: 16)
            guard checksum(of: bytes) == stored else { throw damaged("checksum mismatch") }
        }

        let header = headerSize(sections: sectionCount)
        /// Section `i` as a table of `T`, after checking its element size and place.
        func table<T>(_ i: Int, _ type: T.Type, count expected: Int? = nil) throws(ClusterArchiveError) -> FlatTable<T> {
            let entry = fixedHeaderSize + sectionEntrySize * i
            let offset = try integer(UInt64.self, at: entry), count = try integer(UInt64.self, at: entry + 8)
            let width = try integer(UInt32.self, at: entry + 16)
            guard width == MemoryLayout<T>.stride else {
                throw damaged("section \(i) has \(width)-byte elements, not \(MemoryLayout<T>.stride)")
            }
            let (size, overflow) = count.multipliedReportingOverflow(by: UInt64(width))
            guard !overflow, offset % 8 == 0, offset >= UInt64(header), offset <= UInt64(bytes.count),
                size <= UInt64(bytes.count) - offset
            else {
                throw damaged("section \(i) (\(count) elements at byte \(offset)) lies outside the file")
            }
            if let expected, count != UInt64(expected) {
                throw damaged("section \(i) has \(count) elements, not \(expected)")
            }
            let start = (bytes.baseAddress! + Int(offset)).assumingMemoryBound(to: T.self)
            return FlatTable(viewing: UnsafeBufferPointer(start: start, count: Int(count)), owner: owner)
        }
        func table<T>(_ s: Section, _ type: T.Type, count: Int? = nil) throws(ClusterArchiveError) -> FlatTable<T> {
            try table(s.rawValue, type, count: count)
        }

        let settings = try table(.settings, UInt64.self, count: settingsCount)
        func setting(_ i: Int, _ name: String, atMost limit: Int) throws(ClusterArchiveError) -> Int {
            guard settings[i] <= UInt64(limit) else { throw damaged("\(name) \(settings[i]) is above \(limit)") }
            return Int(settings[i])
        }
        let options = ClusterOptions(
            minZoom: try setting(0, "minZoom", atMost: ClusterOptions.highestZoom),
            maxZoom: try setting(1, "maxZoom", atMost: ClusterOptions.highestZoom),
            minPoints: try setting(2, "minPoints", atMost: Int(Int32.max)),
            radius: Double(bitPattern: settings[3]), extent: Double(bitPattern: settings[4]),
            wrapsAntimeridian: try setting(5, "wraps", atMost: 1) == 1)
        do { try options.validate() } catch { throw damaged("\(error)") }
        let n = try setting(6, "point count", atMost: ClusterIndex.maximumPointCount)
        // Every cluster has two children or more, so there are fewer clusters than points.
        let c = try setting(7, "cluster count", atMost: Swift.max(n - 1, 0))
        let levels = options.maxZoom + 2 - options.minZoom
        guard try setting(8, "level count", atMost: ClusterOptions.highestZoom + 2) == levels,
            sectionCount == fixedSections + 2 * levels
        else {
            throw damaged("\(settings[8]) levels in \(sectionCount) sections; zooms \(options.minZoom)…\(options.maxZoom) make \(levels)")
        }
        guard MemoryLayout<Coordinate>.stride == 16, MemoryLayout<Coordinate>.offset(of: \.latitude) == 0 else {
            throw damaged("this build lays out coordinates differently from the archive")
        }

        let nodes = n + c
        let labels = PointLabelTable(
            idEnds: try table(.idEnds, UInt64.self, count: n), idBytes: try table(.idBytes, UInt8.self),
            nameEnds: try table(.nameEnds, UInt64.self, count: n), nameBytes: try table(.nameBytes, UInt8.self),
            hasName: try table(.hasName, UInt8.self, count: n))
        var levelNodes: [FlatTable<UInt32>] = [], levelPositions: [FlatTable<Double>] = [], grids: [CellGrid] = []
        let exponents = try table(.gridExponents, UInt8.self, count: levels)
        for l in 0..<levels {
            guard exponents[l] <= 30 else { throw damaged("level \(l + options.minZoom) has grid exponent \(exponents[l]), above 30") }
            grids.append(CellGrid(exponent: Int(exponents[l])))
            let order = try table(fixedSections + 2 * l, UInt32.self)
            guard order.count <= n else {
                throw damaged("level \(l + options.minZoom) has \(order.count) items, more than the \(n) points")
            }
            let positions = try table(fixedSections + 2 * l + 1, Double.self)
            guard positions.isEmpty || positions.count == 2 * order.count else {
                throw damaged("level \(l + options.minZoom) has \(positions.count) coordinates for \(order.count) items")
            }
            levelNodes.append(order)
            levelPositions.append(positions)
        }
        let index = ClusterIndex(
            options: options, points: try table(.points, Coordinate.self, count: n),
            nodeX: try table(.nodeX, Double.self, count: nodes), nodeY: try table(.nodeY, Double.self, count: nodes),
            nodeCount: try table(.nodeCount, UInt32.self, count: nodes), nodeSeed: try table(.nodeSeed, UInt32.self, count: nodes),
            clusterZoom: try table(.clusterZoom, UInt8.self, count: c),
            clusterLatitude: try table(.clusterLatitude, Double.self, count: c),
            childStart: try table(.childStart, UInt32.self, count: c + 1), childNodes: try table(.childNodes, UInt32.self),
            levelNodes: levelNodes, levelPositions: levelPositions, levelGrids: grids)
        if verify {
            if let problem = index.tableProblem() ?? labels.tableProblem() { throw damaged(problem) }
        }
        return (index, labels)
    }
}

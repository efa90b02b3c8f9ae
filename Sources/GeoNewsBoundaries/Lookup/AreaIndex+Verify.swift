import GeoNewsData

extension AreaIndex {
    /// Checks every byte against the stored checksum, then that every slot of the cell tree
    /// stays inside its section and names a region that exists, that every region names a
    /// country of the catalogue or the open ocean, and that every leaf keeps its rules
    /// (``leafProblem()``). It reads the whole file, so it is left to
    /// `geonews-index --check` and the build, not each load.
    public func verify() throws(DataError) {
        let body = UnsafeRawBufferPointer(rebasing: bytes[AreaIndexFormat.headerSize...])
        let stored = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
        guard body.count % 32 == 0, CountryIndexFormat.checksum(body) == stored else {
            throw .corrupt(path: path, reason: "checksum mismatch")
        }
        if let reason = CellTreeWalk.layoutProblem(
            root: root, nodes: nodes, leafWords: leaves.count, payloadCount: regionCount, payloadName: "region")
        {
            throw .corrupt(path: path, reason: reason)
        }
        for r in 0..<regionCount {
            let country = regions[2 * r]
            guard country == AreaIndexFormat.noCountry || Int(country) < countryCount else {
                throw .corrupt(path: path, reason: "region \(r) names country \(country)")
            }
        }
        if let problem = leafProblem() { throw .corrupt(path: path, reason: problem.description) }
    }
}

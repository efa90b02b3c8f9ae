extension CountryIndex {
    /// The first slot that points outside its section or names no country, or `nil` when
    /// every step of a descent stays inside the file. (What lies inside a leaf is vouched for
    /// by the checksum and by the builder's tests; walking every leaf would double the load.)
    static func layoutProblem(
        root: UnsafeBufferPointer<UInt32>, nodes: UnsafeBufferPointer<UInt32>,
        leaves: UnsafeBufferPointer<UInt64>, countryCount: Int
    ) -> String? {
        typealias F = CountryIndexFormat
        func problem(_ slot: UInt32) -> String? {
            switch slot >> F.kindShift {
            case F.Kind.country.rawValue:
                return Int(slot & F.payloadMask) < countryCount ? nil : "a cell names country \(slot & F.payloadMask)"
            case F.Kind.node.rawValue:
                let k = Int(slot >> F.fanOutShift & 3) + 1
                return Int(slot & F.nodeIndexMask) + (1 << (2 * k)) <= nodes.count ? nil : "a node lies outside the node section"
            case F.Kind.leaf.rawValue:
                return Int(slot & F.payloadMask) < leaves.count ? nil : "a leaf lies outside the leaf section"
            default:
                return nil
            }
        }
        for slot in root { if let p = problem(slot) { return p } }
        for slot in nodes { if let p = problem(slot) { return p } }
        return nil
    }
}

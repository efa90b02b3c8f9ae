/// The id and optional display name of each input point of a ``ClusterIndex``, which the
/// GeoJSON and vector-tile writers put on lone points and in cluster member lists.
public protocol PointLabels {
    /// The id of point `point` (an index into ``ClusterIndex/points``).
    func id(ofPoint point: Int) -> String
    /// The display name of point `point`, `nil` when it has none.
    func name(ofPoint point: Int) -> String?
}

/// Labels held as two arrays indexed like the points.
public struct PointLabelArrays: PointLabels, Sendable {
    public let ids: [String]
    public let names: [String?]

    public init(ids: [String], names: [String?]) {
        self.ids = ids
        self.names = names
    }

    public func id(ofPoint point: Int) -> String { ids[point] }
    public func name(ofPoint point: Int) -> String? { names[point] }
}

/// Labels as one table of UTF-8 bytes with offsets, as a ``ClusterArchive`` stores them: id
/// `p` is `idBytes[idEnds[p − 1] ..< idEnds[p]]` (from 0 for the first), names likewise, and a
/// point without a name has `hasName[p] == 0`. ``ClusterArchive`` checks that the offsets rise
/// and stay inside the bytes before it makes one.
public struct PointLabelTable: PointLabels, Sendable {
    let idEnds: FlatTable<UInt64>
    let idBytes: FlatTable<UInt8>
    let nameEnds: FlatTable<UInt64>
    let nameBytes: FlatTable<UInt8>
    let hasName: FlatTable<UInt8>

    public func id(ofPoint point: Int) -> String { Self.text(point, idEnds, idBytes) }

    public func name(ofPoint point: Int) -> String? {
        hasName[point] == 0 ? nil : Self.text(point, nameEnds, nameBytes)
    }

    private static func text(_ point: Int, _ ends: FlatTable<UInt64>, _ bytes: FlatTable<UInt8>) -> String {
        let start = point == 0 ? 0 : Int(ends[point - 1]), end = Int(ends[point])
        // Invalid UTF-8 (a damaged file) is repaired with U+FFFD rather than trusted.
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }
}

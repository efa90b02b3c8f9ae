import GeoNewsGeodesy

@testable import GeoNewsClustering

/// An archive in 8-byte aligned memory of its own, as a mapped file would be, for the
/// archive tests: the bytes live as long as this object, which the read tables keep.
final class ArchiveBytes {
    let bytes: UnsafeMutableRawBufferPointer

    init(_ contents: [UInt8]) {
        bytes = .allocate(byteCount: max(contents.count, 1), alignment: 8)
        bytes.copyBytes(from: contents)
        if contents.isEmpty { bytes[0] = 0 }
        count = contents.count
    }

    let count: Int

    var view: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<count]) }

    deinit { bytes.deallocate() }

    /// The archive of `index` with `labels`.
    static func archive(_ index: ClusterIndex, _ labels: PointLabelArrays) throws -> [UInt8] {
        var out: [UInt8] = []
        try ClusterArchive.write(index, labels: labels) { out.append(contentsOf: $0) }
        return out
    }

    /// Labels for `count` points: ids "p0", "p1", …, names on every third point, some not ASCII.
    static func labels(_ count: Int) -> PointLabelArrays {
        PointLabelArrays(
            ids: (0..<count).map { "p\($0)" }, names: (0..<count).map { $0 % 3 == 0 ? "Zürich \($0)" : nil })
    }

    /// Reads `contents` back.
    static func read(_ contents: [UInt8], verify: Bool = true) throws(ClusterArchiveError) -> (ClusterIndex, PointLabelTable) {
        let box = ArchiveBytes(contents)
        return try ClusterArchive.read(box.view, owner: box, verify: verify)
    }
}

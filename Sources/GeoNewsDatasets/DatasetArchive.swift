import Foundation
import GeoNews
import GeoNewsStore

#if canImport(Glibc)
import Glibc
#endif

/// An upload's cluster archive (``ClusterArchive``), `<id>.cluster` beside its points file:
/// built once from the points, then memory-mapped whenever the dataset is used.
package enum DatasetArchive {
    /// The archive's name in the datasets folder.
    package static func fileName(of record: DatasetRecord) -> String { "\(record.id).cluster" }

    /// The format of a points file, from its name.
    package static func format(of file: String) -> PointFile.Format { file.hasSuffix(".csv") ? .csv : .geoJSON }

    /// Reads the points of `points`, clusters them and writes the archive to `archive` (through
    /// a temporary file renamed into place, so a reader never sees half of one). Blocking: call
    /// it off the request threads. Answers the number of points and the archive's size.
    ///
    /// - Throws: ``DatasetLoadError/tooManyPoints(_:limit:)`` past `maximumPoints`,
    ///   ``DatasetLoadError/unusablePoints(_:)`` for points that cannot be read or clustered.
    /// Messages name the points file `name` (not its path). `admit` is told the archive's size
    /// in bytes before its first byte is written; what it throws stops the build, and no file
    /// is left.
    package static func build(
        points: URL, archive: URL, maximumPoints: Int, name: String, admit: (Int) throws -> Void = { _ in }
    ) throws -> (points: Int, bytes: Int) {
        defer {
            // The points and the index built from them (hundreds of MB for a million points)
            // are gone by now; without this, glibc keeps much of that heap in the process.
            _ = returnFreeHeap?(0)
        }
        return try buildArchive(points: points, archive: archive, maximumPoints: maximumPoints, name: name, admit: admit)
    }

    private static func buildArchive(
        points: URL, archive: URL, maximumPoints: Int, name: String, admit: (Int) throws -> Void
    ) throws -> (points: Int, bytes: Int) {
        let file: PointFile
        let index: ClusterIndex
        do {
            file = try PointFile.read(.file(points.path), format: format(of: points.lastPathComponent))
            guard file.coordinates.count <= maximumPoints else {
                throw DatasetLoadError.tooManyPoints(file.coordinates.count, limit: maximumPoints)
            }
            index = try ClusterIndex(points: file.coordinates)
        } catch let error as DatasetLoadError {
            throw error
        } catch {
            // The reader names its input by its path.
            throw DatasetLoadError.unusablePoints("\(error)".replacingOccurrences(of: points.path, with: name))
        }
        let labels = PointLabelArrays(ids: file.ids, names: file.names)
        var admitted = false
        let bytes = try write(archive) { write in
            try ClusterArchive.write(index, labels: labels) { chunk in
                if !admitted {
                    // The first chunk is the header, whose bytes 24..<32 hold the file's size
                    // (see docs/datasets.md): room is asked for before anything is written.
                    guard chunk.count >= 32,
                        let size = Int(exactly: UInt64(littleEndian: chunk.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
                    else { throw DatasetLoadError.unwritable(archive.lastPathComponent, "its header is incomplete") }
                    try admit(size)
                    admitted = true
                }
                try write(chunk)
            }
        }
        return (file.coordinates.count, bytes)
    }

    /// glibc's `malloc_trim`, which Swift's Glibc module does not declare: it gives the heap's
    /// free pages back to the system.
    private static let returnFreeHeap: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Writes a file through `body`'s chunks into a temporary file, syncs it and renames it
    /// to `url`; answers its size.
    private static func write(_ url: URL, _ body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Int {
        let temporary = url.path + ".partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DatasetLoadError.unwritable(url.lastPathComponent, String(cString: strerror(errno))) }
        var written = 0
        do {
            defer { close(fd) }
            try body { chunk in
                var done = 0
                while done < chunk.count {
                    let n = Glibc.write(fd, chunk.baseAddress! + done, chunk.count - done)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw DatasetLoadError.unwritable(url.lastPathComponent, String(cString: strerror(errno))) }
                    done += n
                }
                written += done
            }
            guard fsync(fd) == 0 else { throw DatasetLoadError.unwritable(url.lastPathComponent, String(cString: strerror(errno))) }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw DatasetLoadError.unwritable(url.lastPathComponent, String(cString: strerror(errno)))
        }
        return written
    }

    /// The dataset of `record`, read in place from the archive at `url`. With `verify` every
    /// byte is checked first (see ``ClusterArchive/read(_:owner:verify:)``) and the pages that
    /// check brought in are let go again, so that only queries make pages resident.
    package static func map(_ url: URL, record: DatasetRecord, verify: Bool) throws -> ClusterDataset {
        let file: MappedFile
        do {
            file = try MappedFile(path: url.path)
        } catch {
            let reason = "\(error)".replacingOccurrences(of: url.path, with: url.lastPathComponent)
            throw DatasetLoadError.damaged(url.lastPathComponent, reason)
        }
        do {
            let (index, labels) = try ClusterArchive.read(file.bytes, owner: file, verify: verify)
            if verify { file.releaseResidentPages() }
            return ClusterDataset(name: record.id, version: record.version, index: index, labels: labels, mappedBytes: file.bytes.count)
        } catch .olderFormat(let version) {
            throw DatasetLoadError.olderFormat(url.lastPathComponent, version)
        } catch {
            throw DatasetLoadError.damaged(url.lastPathComponent, error.description)
        }
    }

    /// What tells one version of a file from another without reading it: device, inode, size
    /// and modification time. An archive this process wrote or verified is trusted again
    /// while its identity is the same.
    package struct Identity: Hashable, Sendable {
        let device: UInt64, inode: UInt64, size: Int64, modified: Int64

        init?(_ url: URL) {
            var st = stat()
            guard stat(url.path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int64(st.st_size)
            modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        }
    }
}

/// Why a stored dataset could not be loaded, or an upload could not be stored. Files are named
/// by their name in the datasets folder, never by an absolute path.
package enum DatasetLoadError: Error, CustomStringConvertible {
    case tooManyPoints(Int, limit: Int)
    case unusablePoints(String)
    case missing(String)
    case damaged(String, String)
    case olderFormat(String, UInt32)
    case unwritable(String, String)

    package var description: String {
        switch self {
        case .tooManyPoints(let count, let limit):
            return "the upload has \(count) points; at most \(limit) per upload (--max-upload-points)"
        case .unusablePoints(let reason): return "the points cannot be clustered: \(reason)"
        case .missing(let file): return "its points file \(file) is missing"
        case .damaged(let file, let reason): return "\(file): \(reason)"
        case .olderFormat(let file, let version): return "\(file) has the older archive format \(version)"
        case .unwritable(let file, let reason): return "\(file) cannot be written: \(reason)"
        }
    }
}

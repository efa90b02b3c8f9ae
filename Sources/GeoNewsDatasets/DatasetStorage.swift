import Foundation
import Synchronization

/// The bytes the stored datasets may take together (`--max-dataset-bytes`), shared by the
/// uploads under way through reservations.
///
/// An upload reserves its room before its body is read and keeps it until it is stored or
/// refused: the check of the room and the reservation are one step under one lock, so uploads
/// that arrive together cannot each see the same free room and pass the limit together. What
/// is held is the files in the datasets folder (scanned, not counted, so that a deleted
/// dataset, a rebuilt archive or a fetched copy of another instance's upload is seen as it is)
/// other than those of the uploads under way, which count as their reservations instead.
package final class DatasetStorage: Sendable {
    /// The most bytes the datasets folder may hold, reservations included.
    package let limit: Int
    /// The datasets folder.
    package let folder: URL
    /// The bytes reserved, by the id of the upload under way.
    private let reserved = Mutex<[String: Int]>([:])

    package init(folder: URL, limit: Int) {
        self.folder = folder
        self.limit = limit
    }

    /// Why a reservation could not have the room it asked for.
    package struct Full: Error, Sendable {
        /// Bytes of the stored datasets, other than the uploads under way.
        package let stored: Int
        /// Bytes reserved by the other uploads under way.
        package let reservedByOthers: Int
        /// Bytes the upload asked for in all.
        package let requested: Int
        package let limit: Int
    }

    /// Reserves room for the upload `id`: `bytes`, or, when `bytes` is `nil` (a chunked body
    /// of unknown length), whatever is free up to `atMost`. Release it with
    /// ``Reservation/release()`` on every path.
    ///
    /// - Throws: ``Full`` when `bytes` do not fit, or nothing at all is free.
    package func reserve(_ id: String, bytes: Int?, atMost: Int) throws(Full) -> Reservation {
        try reserved.withLock { (reserved: inout [String: Int]) throws(Full) -> Void in
            let stored = storedBytes(excluding: reserved)
            let others = reserved.values.reduce(0, +)
            let free = limit - stored - others
            let wanted = bytes ?? min(max(free, 0), atMost)
            guard free > 0, wanted >= 0, wanted <= free else {
                // A body of unknown length needs a byte at least.
                throw Full(stored: stored, reservedByOthers: others, requested: bytes ?? 1, limit: limit)
            }
            reserved[id] = wanted
        }
        return Reservation(id: id, storage: self)
    }

    /// Sets the room held for `id` to `bytes`: less always succeeds, more only while it fits.
    fileprivate func resize(_ id: String, to bytes: Int) throws(Full) {
        try reserved.withLock { (reserved: inout [String: Int]) throws(Full) -> Void in
            guard let held = reserved[id] else { return }
            guard bytes > held else {
                reserved[id] = max(bytes, 0)
                return
            }
            var others = reserved
            others[id] = nil
            let stored = storedBytes(excluding: reserved)
            let othersBytes = others.values.reduce(0, +)
            guard stored + othersBytes + bytes <= limit else {
                throw Full(stored: stored, reservedByOthers: othersBytes, requested: bytes, limit: limit)
            }
            reserved[id] = bytes
        }
    }

    /// Why `id` cannot hold `bytes`, by the room as it is now: for a refusal made while a body
    /// streams.
    package func shortfall(_ id: String, wanting bytes: Int) -> Full {
        reserved.withLock { reserved in
            Full(
                stored: storedBytes(excluding: reserved),
                reservedByOthers: reserved.filter { $0.key != id }.values.reduce(0, +), requested: bytes, limit: limit)
        }
    }

    fileprivate func release(_ id: String) {
        _ = reserved.withLock { $0.removeValue(forKey: id) }
    }

    /// The bytes reserved for `id` now; 0 once released.
    package func reservedBytes(_ id: String) -> Int { reserved.withLock { $0[id] ?? 0 } }

    /// Bytes of the stored datasets and of the reservations together: what counts against
    /// ``limit``.
    package func heldBytes() -> Int {
        reserved.withLock { reserved in storedBytes(excluding: reserved) + reserved.values.reduce(0, +) }
    }

    /// Bytes of every file in the folder but those of the uploads in `reserved` (a file
    /// belongs to the id before its first dot: `<id>.csv`, `<id>.cluster`,
    /// `<id>.cluster.partial`).
    private func storedBytes(excluding reserved: [String: Int]) -> Int {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])) ?? []
        return files.reduce(0) { total, file in
            let owner = file.lastPathComponent.prefix { $0 != "." }
            guard reserved[String(owner)] == nil else { return total }
            return total + ((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
    }

    /// Room held for one upload until it is released; released too when the value goes away
    /// unreleased (a thrown error, a cancelled task), so that no path can keep the room.
    package final class Reservation: Sendable {
        package let id: String
        private let storage: DatasetStorage

        fileprivate init(id: String, storage: DatasetStorage) {
            self.id = id
            self.storage = storage
        }

        /// The bytes held now.
        package var bytes: Int { storage.reservedBytes(id) }

        /// Holds `bytes` from now on: less always succeeds, more only while it fits.
        ///
        /// - Throws: ``DatasetStorage/Full`` when more does not fit; the room held is unchanged.
        package func resize(to bytes: Int) throws(Full) { try storage.resize(id, to: bytes) }

        /// Gives the room back. Idempotent. Once the upload's files are stored they count
        /// themselves; once they are removed they count nothing.
        package func release() { storage.release(id) }

        deinit { storage.release(id) }
    }
}

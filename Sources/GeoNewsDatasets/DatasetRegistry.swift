import Foundation
import GeoNews
import GeoNewsStore

/// The cluster datasets: the news markers, and the uploads that persist in the state
/// directory (points and their cluster archive in `datasets/`, metadata in the store).
///
/// An upload is never held on the heap: its archive is memory-mapped on first use (see
/// ``load(_:)``), and when the mapped archives pass ``mappedBudget`` bytes, the least recently
/// used are unmapped (their files stay; the next use maps them again). A request holding a
/// dataset keeps its mapping until it is done. The table is guarded by a lock; each dataset
/// itself is immutable.
package final class DatasetRegistry: @unchecked Sendable {  // `entries` and `clock` are guarded by `lock`
    private struct Entry {
        var record: DatasetRecord
        /// The dataset while it is mapped.
        var dataset: ClusterDataset?
        /// The identity of the archive as this process wrote or verified it: while the file
        /// keeps it, mapping checks only the header.
        var trusted: DatasetArchive.Identity?
        /// When it was last used, on ``clock``.
        var lastUse: UInt64 = 0
    }

    private let lock = NSLock()
    /// Held while an archive is rebuilt, so that two requests never write one file at once.
    private let buildLock = NSLock()
    private let markers: ClusterDataset
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    /// Where uploaded point files and their archives live.
    package let folder: URL
    /// The most bytes of archives mapped at once (`--mapped-dataset-budget`).
    package let mappedBudget: Int
    /// The most points an upload may have (`--max-upload-points`); also the limit when an
    /// archive is rebuilt from stored points.
    package let maximumPoints: Int
    /// The room the stored datasets and the uploads under way share (`--max-dataset-bytes`).
    package let storage: DatasetStorage
    /// The turns of the uploads' builds (`--max-concurrent-dataset-builds`).
    package let builds: DatasetBuildTurns

    /// Stored uploads whose points file and archive were both missing at start, with the
    /// reason: left out of the table, their records kept so that restoring the file brings
    /// them back at the next start and `DELETE` still removes them.
    package let unavailable: [(id: String, reason: String)]

    /// The markers and the stored uploads of `records`, none of them mapped yet.
    ///
    /// - Parameters:
    ///   - storageLimit: bytes of points and archives all datasets may take together.
    ///   - concurrentBuilds: uploads clustered at once; `buildWait` how long one more waits.
    package init(
        markers: ClusterDataset, records: [DatasetRecord], stateDirectory: URL, mappedBudget: Int, maximumPoints: Int,
        storageLimit: Int = .max, concurrentBuilds: Int = 2, buildWait: Duration = .seconds(30)
    ) throws {
        let folder = stateDirectory.appendingPathComponent("datasets")
        self.folder = folder
        self.storage = DatasetStorage(folder: folder, limit: storageLimit)
        self.builds = DatasetBuildTurns(capacity: concurrentBuilds, patience: buildWait)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.markers = markers
        self.mappedBudget = mappedBudget
        self.maximumPoints = maximumPoints
        var unavailable: [(id: String, reason: String)] = []
        var entries: [String: Entry] = [:]
        for record in records {
            let present = [record.file, DatasetArchive.fileName(of: record)].contains {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
            if present {
                entries[record.id] = Entry(record: record)
            } else {
                unavailable.append((record.id, "its file \(folder.appendingPathComponent(record.file).path) is missing"))
            }
        }
        self.entries = entries
        self.unavailable = unavailable
    }

    /// What ``quickDataset(_:)`` finds.
    package enum Lookup {
        /// Ready to query.
        case ready(ClusterDataset)
        /// Known, but its archive must be verified or rebuilt first: call ``load(_:)`` off the
        /// request threads (``dataset(_:)`` does).
        case needsLoad(DatasetRecord)
        case unknown
    }

    /// The dataset `id` without blocking for long: the markers, a mapped upload, or one whose
    /// archive this process trusts (mapping it takes a system call and a header check).
    package func quickDataset(_ id: String) -> Lookup {
        if id == markers.name { return .ready(markers) }
        guard
            let entry = lock.withLock({ () -> Entry? in
                guard var entry = entries[id] else { return nil }
                clock += 1
                entry.lastUse = clock
                entries[id] = entry
                return entry
            })
        else { return .unknown }
        if let dataset = entry.dataset { return .ready(dataset) }
        let url = folder.appendingPathComponent(DatasetArchive.fileName(of: entry.record))
        guard let trusted = entry.trusted, DatasetArchive.Identity(url) == trusted,
            let dataset = try? DatasetArchive.map(url, record: entry.record, verify: false)
        else { return .needsLoad(entry.record) }
        return .ready(install(dataset, record: entry.record, trusted: trusted))
    }

    /// The dataset `id`, loading it off the request threads when it must be (see ``load(_:)``);
    /// `nil` for an unknown id.
    ///
    /// - Throws: ``DatasetLoadError`` when the stored dataset cannot be read or rebuilt.
    package func dataset(_ id: String) async throws -> ClusterDataset? {
        switch quickDataset(id) {
        case .ready(let dataset): return dataset
        case .unknown: return nil
        case .needsLoad(let record): return try await OffThread.run { try self.load(record) }
        }
    }

    /// The dataset of `record`, mapped from its archive and kept in the table: the one way a
    /// record becomes a loaded dataset. An archive not yet trusted by this process is verified
    /// whole (checksum and tables) before use; a missing one, one of an older format or a
    /// damaged one is rebuilt from the record's points file first. Blocking (a verification
    /// reads the whole file, a rebuild clusters the points): call it off the request threads.
    ///
    /// - Throws: ``DatasetLoadError`` when the archive is unusable and the points are missing
    ///   or cannot be clustered.
    package func load(_ record: DatasetRecord) throws -> ClusterDataset {
        let url = folder.appendingPathComponent(DatasetArchive.fileName(of: record))
        let trusted = lock.withLock { entries[record.id]?.trusted }
        if let identity = DatasetArchive.Identity(url) {
            do {
                let dataset = try DatasetArchive.map(url, record: record, verify: identity != trusted)
                return install(dataset, record: record, trusted: identity)
            } catch DatasetLoadError.olderFormat, DatasetLoadError.damaged {
                // Derived from the points: rebuilt below.
            }
        }
        return try buildLock.withLock {
            let points = folder.appendingPathComponent(record.file)
            guard FileManager.default.fileExists(atPath: points.path) else { throw DatasetLoadError.missing(record.file) }
            _ = try DatasetArchive.build(points: points, archive: url, maximumPoints: maximumPoints, name: record.file)
            guard let identity = DatasetArchive.Identity(url) else { throw DatasetLoadError.missing(url.lastPathComponent) }
            return install(try DatasetArchive.map(url, record: record, verify: false), record: record, trusted: identity)
        }
    }

    /// Puts `dataset` in the table as the mapped form of `record` (unless another request
    /// mapped it first, whose mapping is kept), then unmaps the least recently used datasets
    /// while the mapped bytes pass the budget. The dataset in use is never the one unmapped.
    private func install(_ dataset: ClusterDataset, record: DatasetRecord, trusted: DatasetArchive.Identity) -> ClusterDataset {
        lock.withLock {
            var entry = entries[record.id] ?? Entry(record: record)
            let kept = entry.dataset ?? dataset
            clock += 1
            entry.dataset = kept
            entry.trusted = trusted
            entry.lastUse = clock
            entries[record.id] = entry
            var mapped = entries.values.reduce(0) { $0 + ($1.dataset?.mappedBytes ?? 0) }
            while mapped > mappedBudget,
                let (id, oldest) = entries.filter({ $0.value.dataset != nil && $0.key != record.id }).min(by: {
                    $0.value.lastUse < $1.value.lastUse
                })
            {
                mapped -= oldest.dataset?.mappedBytes ?? 0
                entries[id]?.dataset = nil
            }
            return kept
        }
    }

    /// Verifies, on a thread of its own, each stored archive this process does not trust yet,
    /// one at a time, and trusts those that pass: so that after a restart the first query of a
    /// dataset maps it in a system call instead of reading all of it. Nothing stays mapped; an
    /// archive that fails is left for ``load(_:)`` to rebuild when the dataset is used.
    package func startVerifyingStoredArchives() {
        let records = lock.withLock { entries.values.filter { $0.trusted == nil }.map(\.record) }
        guard !records.isEmpty else { return }
        Thread.detachNewThread { [self] in
            for record in records {
                let url = folder.appendingPathComponent(DatasetArchive.fileName(of: record))
                guard let identity = DatasetArchive.Identity(url),
                    (try? DatasetArchive.map(url, record: record, verify: true)) != nil
                else { continue }
                lock.withLock {
                    if entries[record.id]?.trusted == nil { entries[record.id]?.trusted = identity }
                }
            }
        }
    }

    /// Adds an upload whose archive this process has just written.
    package func add(_ record: DatasetRecord) {
        let identity = DatasetArchive.Identity(folder.appendingPathComponent(DatasetArchive.fileName(of: record)))
        lock.withLock { entries[record.id] = Entry(record: record, trusted: identity) }
    }

    /// The records of every upload known here, loaded or not (the markers are not one).
    package var knownRecords: [DatasetRecord] {
        lock.withLock { entries.values.map(\.record) }
    }

    /// The ids of the uploads mapped now, for the tests and the metrics.
    package var mappedIDs: Set<String> {
        lock.withLock { Set(entries.filter { $0.value.dataset != nil }.keys) }
    }

    /// The summary of the markers, then of each of `records` that is known, or that
    /// `fetchable` says can be loaded on first use (another instance's upload), in their order.
    package func summaries(of records: [DatasetRecord], fetchable: Bool = false) -> [DatasetSummary] {
        let known = lock.withLock { Set(entries.keys) }
        return [DatasetSummary(id: markers.name, name: markers.name, points: markers.pointCount, version: markers.version)]
            + records.filter { fetchable || known.contains($0.id) }.map {
                DatasetSummary(id: $0.id, name: $0.name, points: $0.points, version: $0.version)
            }
    }

    /// Forgets the dataset of `record`, the store having forgotten it, and removes its files.
    package func discard(_ record: DatasetRecord) {
        _ = lock.withLock { entries.removeValue(forKey: record.id) }
        for file in [record.file, DatasetArchive.fileName(of: record)] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        }
    }
}

/// What `GET /v1/datasets` lists and `POST /v1/datasets` answers.
package struct DatasetSummary: Encodable, Sendable {
    package let id: String
    package let name: String
    package let points: Int
    package let version: String

    package init(id: String, name: String, points: Int, version: String) {
        self.id = id
        self.name = name
        self.points = points
        self.version = version
    }
}

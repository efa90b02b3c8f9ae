import Foundation
import GeoNewsStore
import Synchronization

/// The datasets other instances uploaded, when the store keeps the points (PostgreSQL): an id
/// this instance has not loaded is looked up in the store, its points fetched into the local
/// datasets folder and loaded on first use; a loaded one is checked against the store again
/// at most every ``recheckSeconds``, in the background, and reloaded when its version changed
/// or forgotten when it was deleted; and every ``recheckSeconds`` ``reconcile()`` forgets, files
/// and mapping included, each one the store no longer has, asked for or not, so that an instance
/// does not keep what another deleted. With SQLite nothing is shared and this does nothing.
package final class SharedDatasets: Sendable {
    /// Seconds between two checks of one loaded dataset against the store.
    package static let recheckSeconds: Double = 10

    private let store: any ServerStore
    private let registry: DatasetRegistry
    /// When each loaded dataset was last checked against the store.
    private let checked = Mutex<[String: Date]>([:])
    /// The fetches under way, so that concurrent first uses of one id fetch it once.
    private let fetches = Mutex<[String: Task<ClusterDataset?, any Error>]>([:])

    package init(store: any ServerStore, registry: DatasetRegistry) {
        self.store = store
        self.registry = registry
    }

    /// Whether an id this instance has not loaded may still be in the store: an upload's id
    /// (16 hexadecimal digits) and a store that keeps points.
    package func mayFetch(_ id: String) -> Bool {
        store.sharesDatasetPoints && id.utf8.count == 16 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The dataset `id`: loaded already, or fetched from the store now; `nil` when neither
    /// this instance nor the store has it. Throws ``StoreError`` when the store is out of
    /// reach (a dataset loaded already is answered without it).
    package func dataset(_ id: String) async throws -> ClusterDataset? {
        if let loaded = try await registry.dataset(id) {
            served(id)
            return loaded
        }
        guard mayFetch(id) else { return nil }
        let task = fetches.withLock { running in
            if let task = running[id] { return task }
            let task = Task { try await self.fetch(id) }
            running[id] = task
            return task
        }
        defer { _ = fetches.withLock { $0.removeValue(forKey: id) } }
        return try await task.value
    }

    /// Notes that a loaded dataset was served; checks it against the store in the background
    /// when its last check is older than ``recheckSeconds``. Never waits.
    package func served(_ id: String) {
        guard store.sharesDatasetPoints, id != "markers" else { return }
        let now = Date()
        let due = checked.withLock { times in
            guard now.timeIntervalSince(times[id] ?? .distantPast) >= Self.recheckSeconds else { return false }
            times[id] = now
            return true
        }
        guard due else { return }
        Task { try? await self.recheck(id) }
    }

    /// Forgets every dataset known here that the store no longer has (deleted through another
    /// instance): its entry, its mapping and its files; and the check times of ids gone. The
    /// known ids are read before the store's, and an upload is in the store before it is known
    /// here, so one that arrives meanwhile is never taken for deleted. Returns the ids forgotten.
    @discardableResult
    package func reconcile() async throws -> [String] {
        guard store.sharesDatasetPoints else { return [] }
        let known = registry.knownRecords
        guard !known.isEmpty || !checked.withLock({ $0.isEmpty }) else { return [] }
        let live = Set(try await store.allDatasets().map(\.id))
        var forgotten: [String] = []
        for record in known where !live.contains(record.id) {
            registry.discard(record)
            forgotten.append(record.id)
        }
        checked.withLock { times in times = times.filter { live.contains($0.key) } }
        return forgotten
    }

    /// ``reconcile()`` every ``recheckSeconds`` until the task is cancelled; a store out of
    /// reach only skips a round.
    package func reconcileUntilCancelled() async {
        guard store.sharesDatasetPoints else { return }
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(Self.recheckSeconds))
            } catch {
                return
            }
            _ = try? await reconcile()
        }
    }

    /// Forgets a dataset deleted through any instance, reloads one whose version changed.
    private func recheck(_ id: String) async throws {
        guard case .ready(let loaded) = registry.quickDataset(id) else { return }
        guard let record = try await store.dataset(id: id) else {
            registry.discard(DatasetRecord(id: id, name: id, points: 0, version: loaded.version, file: Self.fileName(id, registry)))
            return
        }
        if record.version != loaded.version {
            // The archive of the old points would be mapped again: both files go first.
            registry.discard(record)
            _ = try await fetch(id, record: record)
        }
    }

    private func fetch(_ id: String, record known: DatasetRecord? = nil) async throws -> ClusterDataset? {
        let found: DatasetRecord?
        if let known { found = known } else { found = try await store.dataset(id: id) }
        guard let record = found else { return nil }
        guard let points = try await store.datasetPoints(id: id) else { return nil }
        let file = registry.folder.appendingPathComponent(record.file)
        let registry = self.registry
        let dataset = try await OffThread.run {
            // A whole file or none: a reader never sees one half written.
            try points.write(to: file, options: .atomic)
            return try registry.load(record)
        }
        checked.withLock { $0[id] = Date() }
        return dataset
    }

    /// The file a loaded dataset was read from, whichever extension its upload had.
    private static func fileName(_ id: String, _ registry: DatasetRegistry) -> String {
        let csv = "\(id).csv"
        return FileManager.default.fileExists(atPath: registry.folder.appendingPathComponent(csv).path) ? csv : "\(id).geojson"
    }
}

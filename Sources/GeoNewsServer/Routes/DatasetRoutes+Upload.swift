import Crypto
import Foundation
import GeoNews
import GeoNewsDatasets
import Hummingbird
import NIOCore
import Synchronization

/// The two long steps of `POST /v1/datasets`: the body to a file, then the points to a cluster
/// archive, each with its limits.
extension DatasetRoutes {
    /// Clusters the points file `points` into `archive` off the request threads, once the
    /// upload's turn comes (``DatasetBuildTurns``), growing `reservation` from the points file's
    /// `pointsBytes` to it and the archive together before the archive is written.
    ///
    /// An upload whose connection closes while it waits (`connectionClosed` completes: the
    /// client was killed or reset it, or a proxy gave up) leaves the queue then and is not
    /// built: no one would get the answer, and the turn goes to the next. A client that only
    /// shuts down its sending side may still read the answer, as HTTP/1.1 allows, so that
    /// alone does not end the wait.
    ///
    /// - Throws: a ``Problem``: 503 with `Retry-After` when no turn came within
    ///   `--dataset-build-wait`, 503 when the connection closed first (no one reads it), 413
    ///   past `--max-upload-points` or `--max-dataset-bytes`, 400 for points that cannot be
    ///   clustered, 500 when the archive cannot be written. Files it wrote are removed; the
    ///   points file is the caller's.
    func build(
        points: URL, archive: URL, reservation: DatasetStorage.Reservation, pointsBytes: Int,
        connectionClosed: EventLoopFuture<Void>
    ) async throws -> (points: Int, bytes: Int) {
        let turns = state.datasets.builds
        // The wait is a task of its own, cancelled when the connection closes first, or with
        // the request (a wait that ended has nothing left to cancel).
        let waiting = Task { await turns.begin() }
        let left = ClientLeft()
        connectionClosed.whenComplete { _ in
            left.flag.store(true, ordering: .relaxed)
            waiting.cancel()
        }
        let granted = await withTaskCancellationHandler {
            await waiting.value
        } onCancel: {
            waiting.cancel()
        }
        guard granted else {
            if left.flag.load(ordering: .relaxed) {
                throw Problem(.serviceUnavailable, detail: "the connection closed while the upload waited its turn: it was not clustered")
            }
            throw Self.buildsBusy(turns)
        }
        defer { turns.finish() }
        let maximumPoints = state.datasets.maximumPoints
        do {
            // Not cancelled with the request: the turn is held until the thread is done.
            return try await OffThread.run {
                try DatasetArchive.build(points: points, archive: archive, maximumPoints: maximumPoints, name: "upload") {
                    try reservation.resize(to: pointsBytes + $0)
                }
            }
        } catch let full as DatasetStorage.Full {
            throw Self.overStorage(full)
        } catch DatasetLoadError.tooManyPoints(let count, let limit) {
            throw Problem(
                .contentTooLarge, title: "Too many points",
                detail: "the upload has \(count) points; at most \(limit) per upload (--max-upload-points)",
                type: "https://geonews.invalid/problems/too-many-points")
        } catch DatasetLoadError.unusablePoints(let reason) {
            let reason = reason.replacingOccurrences(of: state.configuration.stateDirectory.path, with: "the state directory")
            throw Problem(.badRequest, title: "Unusable points", detail: "the uploaded points cannot be clustered: \(reason)")
        } catch {
            // Not the error itself: a file error names the archive in the state directory.
            throw Problem(.internalServerError, detail: "the upload cannot be stored in the state directory")
        }
    }

    /// The most seconds `Retry-After` asks an upload refused for want of a turn to wait.
    static let longestBuildRetrySeconds: Int64 = 60
    /// The fewest: a retry at once would find the same builds running.
    static let shortestBuildRetrySeconds: Int64 = 5

    /// 503 for an upload that waited `--dataset-build-wait` for a turn to be clustered and got
    /// none; `Retry-After` is that wait, within 5…60 seconds.
    static func buildsBusy(_ turns: DatasetBuildTurns) -> Problem {
        let waited = turns.patience.components.seconds
        let retry = min(max(waited, shortestBuildRetrySeconds), longestBuildRetrySeconds)
        let uploads = turns.capacity == 1 ? "one upload" : "\(turns.capacity) uploads"
        return Problem(
            .serviceUnavailable, title: "Dataset builds busy",
            detail:
                "the server clusters \(uploads) at a time (--max-concurrent-dataset-builds) and this one waited \(waited) s without a turn (--dataset-build-wait); send it again in \(retry) s",
            type: "https://geonews.invalid/problems/dataset-builds-busy", headers: [.retryAfter: "\(retry)"])
    }

    /// Writes `body` to `url` chunk by chunk (`refusal` past `limit` bytes, the file then
    /// removed) and answers the first 16 hex digits of its SHA-256, the dataset's version, and
    /// the number of bytes written.
    static func save(_ body: RequestBody, to url: URL, limit: Int, refusal: Problem) async throws -> (version: String, bytes: Int) {
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: url)
        else {
            throw Problem(.internalServerError, detail: "the upload cannot be stored in the state directory")
        }
        var hash = SHA256()
        var received = 0
        do {
            defer { try? handle.close() }
            for try await buffer in body {
                received += buffer.readableBytes
                guard received <= limit else { throw refusal }
                let bytes = Data(buffer.readableBytesView)
                hash.update(data: bytes)
                try handle.write(contentsOf: bytes)
            }
            try await OffThread.run { try handle.synchronize() }
        } catch {
            try? FileManager.default.removeItem(at: url)
            // Not the error itself: a file error names the absolute path in the state directory.
            throw error as? Problem ?? Problem(.internalServerError, detail: "the upload cannot be stored in the state directory")
        }
        return (hash.finalize().prefix(8).map { String(format: "%02x", $0) }.joined(), received)
    }
}

/// Whether an upload's connection closed while it waited for its turn.
private final class ClientLeft: Sendable {
    let flag = Atomic<Bool>(false)
}

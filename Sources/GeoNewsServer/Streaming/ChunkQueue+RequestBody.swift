import Hummingbird

extension ChunkQueue {
    /// Feeds `body` into the queue chunk by chunk and finishes it; past `limit` bytes it
    /// finishes with a 413 problem instead, and it stops early when the consumer cancels.
    ///
    /// A body that fails as it arrives (its deadline passed, the client went away, the
    /// server is stopping) finishes the queue with the connection's own problem, so that the
    /// run that reads it stops with that status rather than a 500.
    func fill(from body: RequestBody, limit: Int) async {
        var received = 0
        do {
            for try await buffer in body {
                received += buffer.readableBytes
                guard received <= limit else {
                    return finish(
                        throwing: Problem(
                            .contentTooLarge,
                            detail: "the request body is larger than the limit of \(limit) bytes (--max-body-bytes)"))
                }
                guard await put(Array(buffer.readableBytesView)) else { return }
            }
            finish()
        } catch let problem as Problem {
            finish(throwing: problem)
        } catch {
            finish(throwing: Problem(.badRequest, title: "Unreadable body", detail: "the request body could not be read"))
        }
    }
}

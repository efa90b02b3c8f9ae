import Foundation

/// Single flight: while a request is on its way, identical requests wait for its answer
/// instead of sending their own. Keyed by `ProviderRequest.cacheIdentity` (provider and key-free
/// URL), so 50 callers asking for France's headlines at once cost one upstream request.
actor RequestFlights {
    private var running: [String: Task<HTTPResponse, any Error>] = [:]

    /// The answer of the flight for `key`, starting it with `send` when none is on its way.
    func response(for key: String, send: @escaping @Sendable () async throws -> HTTPResponse) async throws -> HTTPResponse {
        if let flight = running[key] { return try await flight.value }
        let flight = Task { try await send() }
        running[key] = flight
        let result = await flight.result
        running[key] = nil
        return try result.get()
    }

    /// Whether a request for `key` is on its way.
    func isRunning(_ key: String) -> Bool { running[key] != nil }
}

import GeoNewsVersion
import Hummingbird
import Prometheus

/// `/healthz` (the process answers), `/readyz` (data and state are loaded and the database
/// answers) and `/metrics` (Prometheus text format: the request families of
/// ``PrometheusNaming``, then ``ProcessMetrics``).
struct HealthRoutes {
    let state: ServerState
    let metrics: PrometheusCollectorRegistry

    func add(to routes: inout RouteBuilder) {
        routes.get("/healthz") { _, _ in JSONResponse.make(#"{"status":"ok","version":"\#(GeoNewsRelease.version)"}"#) }
        routes.get("/readyz") { _, _ in
            do {
                _ = try await state.store.tokenHolder(tokenHash: .init())
            } catch {
                throw Problem(.serviceUnavailable, detail: "the state database does not answer")
            }
            return JSONResponse.make(#"{"status":"ready","countries":\#(state.catalogue.countries.count)}"#)
        }
        routes.get("/metrics") { _, _ in
            var text: [UInt8] = []
            metrics.emit(into: &text)
            text += ProcessMetrics.text().utf8
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}

import GeoNewsStore
import GeoNewsVersion
import Hummingbird
import Prometheus

/// `/healthz` (the process answers), `/readyz` (data and state are loaded and the store
/// answers) and `/metrics` (Prometheus text format: the request families of
/// ``PrometheusNaming``, then ``ProcessMetrics``).
struct HealthRoutes {
    let state: ServerState
    let metrics: PrometheusCollectorRegistry

    func add(to routes: inout RouteBuilder) {
        routes.get("/healthz") { _, _ in JSONResponse.make(#"{"status":"ok","version":"\#(GeoNewsRelease.version)"}"#) }
        routes.get("/readyz") { _, _ in
            let countries = state.catalogue.countries.count
            do {
                try await state.store.ping()
            } catch {
                // Not problem JSON: a load balancer reads the same object either way.
                return JSONResponse.make(
                    #"{"status":"unavailable","countries":\#(countries),"store":"unavailable"}"#, status: .serviceUnavailable,
                    headers: [.retryAfter: "\(Problem.storeRetrySeconds)", .cacheControl: "no-store"])
            }
            return JSONResponse.make(#"{"status":"ready","countries":\#(countries),"store":"ok"}"#, headers: [.cacheControl: "no-store"])
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

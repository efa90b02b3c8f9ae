import GeoNewsDatasets
import Metrics
import Prometheus

/// The swift-metrics factory the server boots: Prometheus collectors named as Prometheus
/// asks (counters end in `_total`, durations are `_seconds`, every family has `# HELP`),
/// whatever label the code that records them used.
///
/// ``RequestMetrics`` (both doors' request metrics) records under the labels in
/// ``families``; any other label becomes its sanitised self with the suffix its kind needs.
struct PrometheusNaming: MetricsFactory {
    let registry: PrometheusCollectorRegistry

    /// A Prometheus family: its base name, unit suffix and help text.
    struct Family {
        var name: String
        var unit: String
        var help: String

        var descriptor: MetricNameDescriptor { MetricNameDescriptor(metricName: name, unitName: unit, helpText: help) }
    }

    /// The families of the labels the server records.
    static let families: [String: Family] = [
        "hb.requests": Family(
            name: "http_server_requests", unit: "total",
            help: "HTTP requests answered, by route, method and status code."),
        "hb.request.errors": Family(
            name: "http_server_request_errors", unit: "total",
            help: "HTTP requests whose route failed (answered with a problem), by route, method and status code."),
        "http.server.request.duration": Family(
            name: "http_server_request_duration", unit: "seconds",
            help: "Time from a request's head to its answer, by route, method and status code."),
        "http.server.active_requests": Family(
            name: "http_server_active_requests", unit: "",
            help: "HTTP requests being answered now, by method."),
        WriteRateLimit<ClientRequestContext>.limitedMetric: Family(
            name: "geonews_write_limited", unit: "total",
            help:
                "Writes answered 429 by the write limit, by what was limited: a client address (behind --trusted-proxy, the forwarded one) or a user."
        ),
        WriteRateLimit<ClientRequestContext>.bucketsMetric: Family(
            name: "geonews_write_limit_buckets", unit: "",
            help: "Write-limit buckets kept now, by kind: client addresses (behind --trusted-proxy, the forwarded ones) and users."),
        DatasetBuildTurns.metric: Family(
            name: "geonews_dataset_builds", unit: "",
            help: "Uploads' cluster builds running now and uploads waiting for a turn (--max-concurrent-dataset-builds), by state."),
    ]

    /// Request-duration buckets, in seconds: from 0.5 ms, so that the p99 target of 5 ms
    /// falls between buckets rather than in the first one.
    static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// Value-histogram buckets for recorders no family names (none are recorded today).
    static let valueBuckets: [Double] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000]

    /// The family of `label` recorded as a metric of this kind.
    static func family(_ label: String, unit: String) -> Family {
        if let family = families[label] { return family }
        var name = String(label.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        if name.first?.isNumber ?? true { name = "geonews_" + name }
        if !unit.isEmpty, name.hasSuffix("_" + unit) { name.removeLast(unit.count + 1) }
        return Family(name: name, unit: unit, help: "Recorded as '\(label)'.")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: Self.family(label, unit: "total").descriptor, labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: Self.family(label, unit: "total").descriptor, labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        let family = Self.family(label, unit: "")
        guard aggregate else { return registry.makeGauge(descriptor: family.descriptor, labels: dimensions) }
        return registry.makeValueHistogram(descriptor: family.descriptor, labels: dimensions, buckets: Self.valueBuckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: Self.family(label, unit: "").descriptor, labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(
            descriptor: Self.family(label, unit: "seconds").descriptor, labels: dimensions,
            buckets: Self.durationBuckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}

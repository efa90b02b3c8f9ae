import GeoNewsBoundaries

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BatchSummary {
    /// Traces listed in ``text()``; the JSON form always has all of them.
    static let tracesShownInText = 20

    /// A human-readable report for standard error.
    public func text() -> String {
        var lines: [String] = []
        lines.append("records: \(recordsRead) read, \(recordsResolved) resolved, \(recordsInError) in error")
        lines.append("speed: \(Int(pointsPerSecond.rounded())) points/s over \(String(cFormat: "%.2f", seconds)) s")
        let ranked = countries.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let top = ranked.prefix(30).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("countries: \(top.isEmpty ? "none" : top)\(ranked.count > 30 ? ", … \(ranked.count - 30) more" : ""); at sea \(atSea)")
        if !regions.isEmpty {
            let byRegion = regions.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let shown = byRegion.prefix(30).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let rest = byRegion.count > 30 ? ", … \(byRegion.count - 30) more" : ""
            lines.append("regions: \(shown)\(rest); without a region \(recordsResolved - regions.values.reduce(0, +))")
        }
        for trace in traces.prefix(Self.tracesShownInText) {
            lines.append("trace \(trace.traceID.isEmpty ? "(all records)" : "\"\(trace.traceID)\""):")
            for s in trace.segments {
                var span = ""
                if let first = s.firstTime {
                    span = "\(Self.utc(first)) … \(Self.utc(s.lastTime ?? first))"
                    if let local = Self.local(s.firstLocalTime, s.firstTimeZone, s.lastLocalTime, s.lastTimeZone) {
                        span += " (local \(local))"
                    }
                    span += ", "
                }
                lines.append("  \(s.country ?? "sea"): \(span)\(s.fixes) fixes, \(String(cFormat: "%.1f", s.distanceKm)) km")
            }
            for c in trace.crossings {
                var at = c.time.map { " at \(Self.utc($0))" } ?? ""
                if let local = c.localTime, let zone = c.timeZone { at += " (local \(local) \(zone))" }
                lines.append(
                    "  crossing \(c.from ?? "sea") → \(c.to ?? "sea")\(at) near \(String(cFormat: "%.5f", c.latitude)), \(String(cFormat: "%.5f", c.longitude))"
                )
            }
        }
        if traces.count > Self.tracesShownInText {
            lines.append("… \(traces.count - Self.tracesShownInText) more traces (see --summary-json)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A time as UTC ISO 8601 when it parses (`1714550400` → `2024-05-01T08:00:00Z`), else as written.
    static func utc(_ time: String) -> String {
        FixTime.epochSeconds(time).map { FixTime.iso8601($0) } ?? time
    }

    /// `2024-05-01T10:00:00+02:00 … 2024-05-01T11:00:00+02:00 Europe/Paris`, naming each zone
    /// when the two differ; `nil` when either local time is unknown.
    static func local(_ first: String?, _ firstZone: String?, _ last: String?, _ lastZone: String?) -> String? {
        guard let first, let firstZone, let last, let lastZone else { return nil }
        return firstZone == lastZone ? "\(first) … \(last) \(firstZone)" : "\(first) \(firstZone) … \(last) \(lastZone)"
    }

    /// The summary as JSON with snake_case keys, countries sorted.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Writes ``json()`` to `path`.
    ///
    /// - Throws: ``BatchResolveError/writeFailed(path:reason:)``.
    public func writeJSON(to path: String) throws(BatchResolveError) {
        let sink = try ByteSink(.file(path))
        try sink.write(json())
        try sink.finish()
    }
}

import GeoNewsBoundaries
import GeoNewsGeodesy
import GeoNewsTimeZones

/// Joins the per-chunk ``TraceRun``s, in input order, into each trace's segments and crossings.
struct JourneyBuilder {
    private struct Open {
        var summary: TraceSummary
        var last: Coordinate
        var lastTime: String?
    }

    private var order: [String] = []
    private var traces: [String: Open] = [:]

    mutating func add(_ run: TraceRun) {
        guard var open = traces[run.traceID] else {
            order.append(run.traceID)
            traces[run.traceID] = Open(
                summary: TraceSummary(traceID: run.traceID, segments: [segment(run)]),
                last: run.last, lastTime: run.lastTime)
            return
        }
        let step = GreatCircle.distance(from: open.last, to: run.first)
        let n = open.summary.segments.count - 1
        if open.summary.segments[n].country == run.country {
            open.summary.segments[n].fixes += run.fixes
            open.summary.segments[n].distanceKm += step + run.distanceKm
            open.summary.segments[n].lastTime = run.lastTime
            open.summary.segments[n].lastTimeZone = run.lastZone
        } else {
            open.summary.crossings.append(crossing(from: open, to: run))
            open.summary.segments.append(segment(run))
        }
        open.last = run.last
        open.lastTime = run.lastTime
        traces[run.traceID] = open
    }

    /// The journeys, with local times from `zoneRules` where a time parses and its zone is known.
    func summaries(zoneRules: @autoclosure () -> TimeZoneRules?) -> [TraceSummary] {
        var result = order.compactMap { traces[$0]?.summary }
        let hasZones = result.contains { $0.segments.contains { $0.firstTimeZone != nil || $0.lastTimeZone != nil } }
        guard hasZones, let rules = zoneRules() else { return result }
        for t in result.indices {
            for s in result[t].segments.indices {
                var segment = result[t].segments[s]
                segment.firstLocalTime = Self.localTime(segment.firstTime, zone: segment.firstTimeZone, rules)
                segment.lastLocalTime = Self.localTime(segment.lastTime, zone: segment.lastTimeZone, rules)
                result[t].segments[s] = segment
            }
            for c in result[t].crossings.indices {
                result[t].crossings[c].localTime = Self.localTime(result[t].crossings[c].time, zone: result[t].crossings[c].timeZone, rules)
            }
        }
        return result
    }

    /// `time` as ISO 8601 in `zone`'s offset at that instant: `2024-05-01T10:30:00+02:00`.
    static func localTime(_ time: String?, zone: String?, _ rules: TimeZoneRules) -> String? {
        guard let zone, let seconds = time.flatMap(FixTime.epochSeconds),
            let offset = rules.offset(ofZone: zone, at: Int64(seconds.rounded(.down)))
        else { return nil }
        return FixTime.iso8601(seconds, offset: offset)
    }

    private func segment(_ run: TraceRun) -> CountrySegment {
        CountrySegment(
            country: run.country, firstTime: run.firstTime, lastTime: run.lastTime,
            fixes: run.fixes, distanceKm: run.distanceKm, firstTimeZone: run.firstZone, lastTimeZone: run.lastZone)
    }

    private func crossing(from open: Open, to run: TraceRun) -> BorderCrossing {
        let mid = Self.midpoint(open.last, run.first)
        var time = run.firstTime
        if let a = open.lastTime.flatMap(FixTime.epochSeconds), let b = run.firstTime.flatMap(FixTime.epochSeconds) {
            time = FixTime.iso8601((a + b) / 2)
        }
        return BorderCrossing(
            from: open.summary.segments.last?.country, to: run.country, time: time,
            latitude: mid.latitude, longitude: mid.longitude, timeZone: run.firstZone)
    }

    /// The great-circle midpoint (Vincenty's spherical form), right across the antimeridian.
    static func midpoint(_ a: Coordinate, _ b: Coordinate) -> Coordinate {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let λ1 = a.longitude * .pi / 180
        let dλ = (b.longitude - a.longitude) * .pi / 180
        let bx = cos(φ2) * cos(dλ), by = cos(φ2) * sin(dλ)
        let φ = atan2(sin(φ1) + sin(φ2), ((cos(φ1) + bx) * (cos(φ1) + bx) + by * by).squareRoot())
        let λ = λ1 + atan2(by, cos(φ1) + bx)
        return Coordinate(latitude: φ * 180 / .pi, longitude: GreatCircle.normalizedLongitude(λ * 180 / .pi))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

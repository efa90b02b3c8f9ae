import GeoNewsBoundaries
import GeoNewsTimeZones

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The human summary of a `Resolution` that `geonews --lat … --lon …` prints without `--json`
/// (the command line's alone; the JSON report is the library's `ResolutionReport`):
///
/// ```
/// Position   22.5726° N, 88.3639° E
/// Country    India (IN, IND)
/// Region     West Bengal (IN-WB)
/// Place      Kolkata, 1.2 km away (population 4,631,392)
/// Border     312 km from the border
/// Time zone  Asia/Kolkata (UTC+05:30), local time 15:42
/// News       India (IN): the position is inside it
/// ```
///
/// The border line appears only when the distance is known (inside a country), the time-zone
/// line only when the zone is; without rules for the zone it names the zone alone. The place line
/// names the nearest populated place the caller found, or says there is none; the region line
/// names the region (and Natural Earth's finer unit, where there is one), says when the position
/// is outside every region's polygons and the region is its country's nearest, and is left out
/// at sea with no country.
struct LocationSummary: Sendable {
    let text: String

    /// - Parameters:
    ///   - language: country names in this Natural Earth language code; `nil` gives English.
    ///   - zoneRules: the rules for the offset and local time; `nil` uses
    ///     `TimeZoneRules.located`, which is loaded only when the resolution has a zone.
    ///   - date: the moment whose offset and local time are shown (now by default).
    ///   - region: the region (``RegionIndex/region(for:)``); `nil` in a country prints that
    ///     none is known.
    ///   - place: the nearest place (``PlaceIndex/place(for:)``); `nil` prints that there is none.
    init(
        _ r: Resolution, region: RegionAnswer? = nil, place: NearestPlace?, language: String?, zoneRules: TimeZoneRules? = nil,
        at date: Date = Date()
    ) {
        var lines: [String] = []
        lines.append("Position   \(DistanceText.position(r.position))")
        if let c = r.country {
            let codes = [c.iso2, c.iso3].compactMap { $0 }.joined(separator: ", ")
            var line = "Country    \(c.name(in: language))" + (codes.isEmpty ? "" : " (\(codes))")
            if c.sovereign != c.name && c.sovereign != c.names["en"] { line += ", \(c.sovereign)" }
            lines.append(line)
        } else if let n = r.nearest {
            lines.append(
                "Country    none, at sea; nearest land \(n.country.name(in: language)) \(DistanceText.kilometres(n.distanceKm)) away")
        } else {
            lines.append("Country    none, at sea")
        }
        if let a = region {
            let code = a.region.iso3166Code.map { " (\($0))" } ?? ""
            var line = "Region     \(a.region.name(in: language))\(code)"
            if let sub = a.subregion { line += ", \(sub.name)" + (sub.iso3166Code.map { " (\($0))" } ?? "") }
            if !a.inside { line += "; the nearest of the country's regions" }
            lines.append(line)
        } else if r.country != nil {
            lines.append("Region     none known in this country")
        }
        if let p = place {
            var line = "Place      \(p.place.name), \(DistanceText.kilometres(p.distanceKm)) away"
            if p.place.population > 0 { line += " (population \(Self.grouped(p.place.population)))" }
            lines.append(line)
        } else {
            lines.append(
                r.country == nil ? "Place      none within \(Int(PlaceIndex.openSeaReachKm)) km" : "Place      none known in this country")
        }
        if let km = r.borderDistanceKm {
            lines.append("Border     \(DistanceText.kilometres(km)) from the border")
        }
        if let zone = r.timeZone {
            let instant = Int64(date.timeIntervalSince1970.rounded(.down))
            if let offset = (zoneRules ?? TimeZoneRules.located)?.offset(ofZone: zone, at: instant) {
                lines.append("Time zone  \(zone) (UTC\(offset)), local time \(offset.clockTime(at: instant))")
            } else {
                lines.append("Time zone  \(zone)")
            }
        }
        let s = r.suggestion
        lines.append("News       \(s.country.name(in: language)) (\(s.country.iso2 ?? s.country.id)): \(r.explanation(language: language))")
        text = lines.joined(separator: "\n")
    }

    /// 4631392 → "4,631,392".
    static func grouped(_ n: UInt32) -> String {
        var digits = Array(String(n))
        var k = digits.count - 3
        while k > 0 {
            digits.insert(",", at: k)
            k -= 3
        }
        return String(digits)
    }
}

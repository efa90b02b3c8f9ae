import GeoNewsBoundaries

/// The human summary printed without `--json`.
struct LocationSummary {
    let text: String

    init(_ r: Resolution, language: String?) {
        var lines: [String] = []
        lines.append("Position   \(DistanceText.position(r.position))")
        if let c = r.country {
            let codes = [c.iso2, c.iso3].compactMap { $0 }.joined(separator: ", ")
            var line = "Country    \(c.name(in: language))" + (codes.isEmpty ? "" : " (\(codes))")
            if c.sovereign != c.name && c.sovereign != c.names["en"] { line += ", \(c.sovereign)" }
            lines.append(line)
        } else if let n = r.nearest {
            lines.append("Country    none, at sea; nearest land \(n.country.name(in: language)) \(DistanceText.kilometres(n.distanceKm)) away")
        } else {
            lines.append("Country    none, at sea")
        }
        let s = r.suggestion
        lines.append("News       \(s.country.name(in: language)) (\(s.country.iso2 ?? s.country.id)): \(r.explanation(language: language))")
        text = lines.joined(separator: "\n")
    }
}

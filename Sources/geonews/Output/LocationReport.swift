import Foundation
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsGeodesy

/// The `--json` form of a resolution. Keys are part of the documented interface.
struct LocationReport: Encodable {
    struct Position: Encodable { let lat: Double; let lon: Double }
    struct Place: Encodable {
        let id: String
        let iso2: String?
        let iso3: String?
        let name: String
        let sovereign: String
        let continent: String
    }
    struct Nearest: Encodable {
        let iso2: String?
        let name: String
        let distanceKm: Double
    }
    struct SuggestionJSON: Encodable {
        let iso2: String?
        let name: String
        let reason: String
        let distanceKm: Double
        let explanation: String
    }

    let position: Position
    let country: Place?
    let nearest: Nearest?
    let suggestion: SuggestionJSON
    /// The suggested country's headlines as `geonews-news headlines --json` gave them; left out
    /// with `--no-headlines`.
    var headlines: JSONValue?

    init(_ r: Resolution, language: String?) {
        position = Position(lat: r.position.latitude, lon: r.position.longitude)
        country = r.country.map {
            Place(id: $0.id, iso2: $0.iso2, iso3: $0.iso3, name: $0.name(in: language), sovereign: $0.sovereign, continent: $0.continent)
        }
        nearest = r.nearest.map { Nearest(iso2: $0.country.iso2, name: $0.country.name(in: language), distanceKm: Self.rounded($0.distanceKm)) }
        suggestion = SuggestionJSON(iso2: r.suggestion.country.iso2, name: r.suggestion.country.name(in: language),
                                    reason: r.suggestion.reason.rawValue, distanceKm: Self.rounded(r.suggestion.distanceKm),
                                    explanation: LocationSummary.explanation(r, language: language))
    }

    /// Metres are the useful precision for kilometres here.
    static func rounded(_ km: Double) -> Double { (km * 1000).rounded() / 1000 }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(position, forKey: .position)
        // `country` and `nearest` are written as null rather than left out.
        try c.encode(country, forKey: .country)
        try c.encode(nearest, forKey: .nearest)
        try c.encode(suggestion, forKey: .suggestion)
        try c.encodeIfPresent(headlines, forKey: .headlines)
    }

    private enum Keys: String, CodingKey { case position, country, nearest, suggestion, headlines }

    func jsonString() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// The human summary printed without `--json`.
struct LocationSummary {
    let text: String

    init(_ r: Resolution, language: String?) {
        var lines: [String] = []
        lines.append("Position   \(Self.format(r.position))")
        if let c = r.country {
            let codes = [c.iso2, c.iso3].compactMap { $0 }.joined(separator: ", ")
            var line = "Country    \(c.name(in: language))" + (codes.isEmpty ? "" : " (\(codes))")
            if c.sovereign != c.name && c.sovereign != c.names["en"] { line += ", \(c.sovereign)" }
            lines.append(line)
        } else if let n = r.nearest {
            lines.append("Country    none, at sea; nearest land \(n.country.name(in: language)) \(Self.km(n.distanceKm)) away")
        } else {
            lines.append("Country    none, at sea")
        }
        let s = r.suggestion
        lines.append("News       \(s.country.name(in: language)) (\(s.country.iso2 ?? s.country.id)): \(Self.explanation(r, language: language))")
        text = lines.joined(separator: "\n")
    }

    /// Why this news country, in one sentence.
    static func explanation(_ r: Resolution, language: String?) -> String {
        let s = r.suggestion
        switch s.reason {
        case .inside:
            return "the position is inside it"
        case .sovereign:
            let place = r.country.map { $0.name(in: language) } ?? "the territory"
            return "\(place) has no news coverage of its own and is part of it"
        case .offshore:
            if let n = r.nearest, n.country != s.country {
                return "the position is at sea \(km(s.distanceKm)) off the coast of \(n.country.name(in: language)), which is part of it"
            }
            return "the position is at sea \(km(s.distanceKm)) off its coast"
        case .nearestMarker:
            let place = r.country.map { "\($0.name(in: language)) has no news coverage" } ?? "the position is at sea"
            return "\(place); its marker is the nearest, \(km(s.distanceKm)) away"
        }
    }

    static func km(_ d: Double) -> String {
        if d < 10 { return String(format: "%.1f km", d) }
        let n = Int(d.rounded())
        var digits = String(n)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits = String(digits.dropLast(3))
        }
        groups.insert(digits, at: 0)
        return groups.joined(separator: ",") + " km"
    }

    static func format(_ c: Coordinate) -> String {
        let ns = c.latitude >= 0 ? "N" : "S", ew = c.longitude >= 0 ? "E" : "W"
        return String(format: "%.4f° %@, %.4f° %@", abs(c.latitude), ns, abs(c.longitude), ew)
    }
}

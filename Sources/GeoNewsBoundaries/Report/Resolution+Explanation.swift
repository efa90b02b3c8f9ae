import GeoNewsGeodesy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Resolution {
    /// Why this news country, in one sentence without a final stop, with country names in
    /// `language`: "the position is inside it", "the position is at sea 12.3 km off its coast",
    /// "Luxembourg has no news coverage; its marker is the nearest, 161 km away".
    public func explanation(language: String?) -> String {
        let s = suggestion
        switch s.reason {
        case .inside:
            return "the position is inside it"
        case .sovereign:
            let place = country.map { $0.name(in: language) } ?? "the territory"
            return "\(place) has no news coverage of its own and is part of it"
        case .offshore:
            if let n = nearest, n.country != s.country {
                return
                    "the position is at sea \(DistanceText.kilometres(s.distanceKm)) off the coast of \(n.country.name(in: language)), which is part of it"
            }
            return "the position is at sea \(DistanceText.kilometres(s.distanceKm)) off its coast"
        case .nearestMarker:
            let place = country.map { "\($0.name(in: language)) has no news coverage" } ?? "the position is at sea"
            return "\(place); its marker is the nearest, \(DistanceText.kilometres(s.distanceKm)) away"
        }
    }
}

/// Distances and positions as people read them.
public enum DistanceText {
    /// Kilometres: one decimal under 10 km (`"3.4 km"`), whole kilometres with thousands
    /// separators above (`"1,234 km"`).
    public static func kilometres(_ d: Double) -> String {
        if d < 10 { return String(cFormat: "%.1f km", d) }
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

    /// `48.8566° N, 2.3522° E`: four decimals (about 10 m) and a hemisphere letter each.
    public static func position(_ c: Coordinate) -> String {
        let ns = c.latitude >= 0 ? "N" : "S", ew = c.longitude >= 0 ? "E" : "W"
        return String(cFormat: "%.4f° ", abs(c.latitude)) + ns + String(cFormat: ", %.4f° ", abs(c.longitude)) + ew
    }
}

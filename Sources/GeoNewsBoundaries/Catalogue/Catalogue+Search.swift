import Foundation

extension Catalogue {
    /// The map's country search box: countries whose name in any language, or whose ISO code,
    /// starts with `text`, ignoring case and accents ("jap", "Japon" and "jp" all find Japan).
    /// A word inside a name counts too ("korea" finds South Korea). Exact code matches come
    /// first, then whole-name prefixes, then word prefixes; ties keep catalogue order.
    public func search(_ text: String, newsOnly: Bool = false) -> [Country] {
        let query = Self.folded(text)
        guard !query.isEmpty else { return newsOnly ? newsCountries : countries }
        var ranked: [(rank: Int, index: Int)] = []
        for (i, c) in countries.enumerated() where !newsOnly || c.hasNews {
            var best = Int.max
            for code in [c.iso2, c.iso3, c.id].compactMap({ $0 }) where Self.folded(code) == query {
                best = 0
            }
            if best > 0 {
                for name in [c.name] + c.names.values {
                    let f = Self.folded(name)
                    if f.hasPrefix(query) { best = min(best, 1); break }
                    if f.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "'" || $0 == "." })
                        .contains(where: { $0.hasPrefix(query) })
                    {
                        best = min(best, 2)
                    }
                }
            }
            if best < Int.max { ranked.append((best, i)) }
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map { countries[$0.index] }
    }

    /// Lower case, accents removed, compatibility forms unified ("Côte" → "cote").
    static func folded(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }
}

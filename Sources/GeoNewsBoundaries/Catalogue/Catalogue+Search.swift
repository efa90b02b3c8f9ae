// The canonical decomposition the folding needs; the standard library's own (what Foundation
// uses for the same purpose), so that this module need not link ICU through Foundation.
@_spi(_Unicode) import Swift

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
    ///
    /// What Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive,
    /// .widthInsensitive], locale: nil)` and whitespace trimming gave for every name of
    /// `countries.json` (checked name by name), on the standard library alone, so that this
    /// module does not link Foundation's ICU: the canonical decomposition without the combining
    /// diacritical marks (U+0300–U+036F, the ones Foundation drops), full-width ASCII as ASCII,
    /// lower case, and the case folds lower case lacks (final sigma, ß, the Latin ligatures).
    static func folded(_ s: String) -> String {
        // Printable ASCII (most names and every code): lower case and trimmed is the whole fold.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            let bytes = s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
            guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 }) else { return "" }
            return String(decoding: bytes[first...last], as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in s._nfd where !(0x0300...0x036F).contains(scalar.value) {
            switch scalar.value {
            case 0xFF01...0xFF5E: scalars.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            case 0x3000: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        var folded = String.UnicodeScalarView()
        for scalar in String(scalars).lowercased().unicodeScalars {
            switch scalar.value {
            case 0x03C2: folded.append("\u{03C3}")
            case 0x00DF: folded.append(contentsOf: "ss".unicodeScalars)
            case 0xFB00...0xFB06: folded.append(contentsOf: Self.ligatures[Int(scalar.value - 0xFB00)].unicodeScalars)
            default: folded.append(scalar)
            }
        }
        let text = String(folded)
        let isSpace: (Character) -> Bool = {
            $0.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[first...last])
    }

    /// U+FB00…U+FB06 (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) case-folded.
    private static let ligatures = ["ff", "fi", "fl", "ffi", "ffl", "st", "st"]
}

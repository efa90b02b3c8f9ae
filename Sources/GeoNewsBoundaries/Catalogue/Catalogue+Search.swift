// The canonical decomposition the folding needs; the standard library's own (what Foundation
// uses for the same purpose), so that this module need not link ICU through Foundation.
@_spi(_Unicode) import Swift

extension Catalogue {
    /// The map's country search box: countries whose name in any language, or whose ISO code,
    /// starts with `text`, ignoring case and accents ("jap", "Japon" and "jp" all find Japan).
    /// A word inside a name counts too ("korea" finds South Korea). Exact code matches come
    /// first, then whole-name prefixes, then word prefixes; ties keep catalogue order.
    public func search(_ text: String, newsOnly: Bool = false) -> [Country] {
        let query = Array(Self.folded(text).utf8)
        guard !query.isEmpty else { return newsOnly ? newsCountries : countries }
        var ranked: [(rank: Int, index: Int)] = []
        for (i, c) in countries.enumerated() where !newsOnly || c.hasNews {
            if let rank = Self.rank(of: query, codes: [c.iso2, c.iso3, c.id].compactMap { $0 }, names: [c.name] + c.names.values) {
                ranked.append((rank, i))
            }
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map { countries[$0.index] }
    }

    /// How well the folded `query` (its UTF-8) matches an entry with these codes and names: 0 an
    /// exact code, 1 a name that starts with it, 2 a word inside a name that does (a word starts
    /// after a space, `-`, `'` or `.`), nil none. Compared as bytes of folded text, which is
    /// what the search costs: Unicode-aware comparison of every name was most of it.
    static func rank(of query: [UInt8], codes: [String], names: [String]) -> Int? {
        if codes.contains(where: { $0.utf8.count == query.count && folded($0).utf8.elementsEqual(query) }) { return 0 }
        var best: Int?
        // A query that starts with an ASCII letter or digit can only match a name whose fold has
        // one: skip, unfolded, the names without any (Cyrillic, Arabic, Han…), and without a
        // full-width form (U+FF01…U+FF5E, UTF-8 EF BC/BD …), which folds to ASCII.
        let asciiQuery = query.allSatisfy { $0 < 0x80 } && query.first.map(isASCIIAlphanumeric) == true
        for name in names {
            if asciiQuery, !name.utf8.contains(where: { isASCIIAlphanumeric($0) || $0 == 0xEF }) { continue }
            let f = Array(folded(name).utf8)
            if f.starts(with: query) { return 1 }
            if best == nil, f.indices.contains(where: { k in Self.isWordBreak(f[k]) && f[(k + 1)...].starts(with: query) }) { best = 2 }
        }
        return best
    }

    private static func isWordBreak(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x2D || byte == 0x27 || byte == 0x2E }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
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

import Foundation

extension Article {
    /// What makes two articles the same story from the same publisher: the headline and the
    /// publisher (its name, else its site's host), each case- and accent-folded with punctuation
    /// and repeated spaces dropped. "Réforme : le Sénat vote" and "reforme - le senat vote" match.
    var duplicateKey: String {
        let publisher = sourceName ?? (sourceURL ?? url).host.map { $0.hasPrefix("www.") ? String($0.dropFirst(4)) : $0 }
        return Self.normalised(title) + "\u{1F}" + Self.normalised(publisher ?? "")
    }

    static func normalised(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var words: [String] = []
        var word = ""
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ")
    }
}

extension Array where Element == Article {
    /// The articles with later copies of the same story from the same publisher dropped; the
    /// first copy keeps its place.
    func withoutDuplicates() -> [Article] {
        var seen = Set<String>()
        return filter { seen.insert($0.duplicateKey).inserted }
    }
}

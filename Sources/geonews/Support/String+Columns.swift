extension String {
    /// Exactly `width` characters: cut, or filled with spaces on the right, for the columns of
    /// the text listings (what Foundation's `padding(toLength:withPad:startingAt:)` did here).
    func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `.whitespaces`).
    var trimmedOfSpaces: String {
        let isSpace: (Character) -> Bool = {
            $0.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

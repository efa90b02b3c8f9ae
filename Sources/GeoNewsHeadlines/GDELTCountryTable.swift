import Foundation

/// What GDELT DOC 2.0 needs to ask for a news country, loaded from `Data/gdelt-countries.json`
/// (built by `Scripts/build_gdelt_table.py` from GDELT's own lookups).
///
/// GDELT's `sourcecountry:` takes FIPS 10-4 codes, which are not ISO 3166-1: Austria is `AU`,
/// Australia `AS`, Switzerland `SZ`, China `CH`, Germany `GM`, the United Kingdom `UK`.
public struct GDELTCountryTable: Sendable {
    public struct Country: Codable, Sendable, Hashable {
        /// FIPS 10-4 code, e.g. "AU" for Austria.
        public var fips: String
        /// GDELT's name for the country.
        public var name: String
        /// ISO 639-1 codes of the country's news languages, main one first.
        public var languages: [String]
    }

    /// Keyed by lowercase ISO 3166-1 alpha-2 code.
    public let countries: [String: Country]
    /// ISO 639-1 code → the language name `sourcelang:` takes and articles carry ("fr" → "French").
    public let languages: [String: String]
    /// Headline category (`HeadlineCategory.rawValue`) → the GKG themes it asks for.
    public let categoryThemes: [String: [String]]

    /// Lowercase language name → ISO 639-1 code.
    private let codesByName: [String: String]

    init(countries: [String: Country], languages: [String: String], categoryThemes: [String: [String]]) {
        self.countries = countries
        self.languages = languages
        self.categoryThemes = categoryThemes
        codesByName = Dictionary(languages.map { ($0.value.lowercased(), $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    private struct File: Codable {
        var countries: [String: Country]
        var languages: [String: String]
        var categoryThemes: [String: [String]]
    }

    /// Reads and checks the table: two-letter lowercase keys, distinct two-letter uppercase FIPS
    /// codes, every country language named, a theme list for every category but `general`.
    /// Throws `HeadlineError.gdeltTable` naming the file and the fault.
    public static func load(from url: URL) throws -> GDELTCountryTable {
        func fault(_ detail: String) -> HeadlineError { .gdeltTable(path: url.path, detail: detail) }
        let file = try JSONBody.decodeFile(File.self, at: url, fault: fault)
        var seen: [String: String] = [:]
        for (code, country) in file.countries.sorted(by: { $0.key < $1.key }) {
            guard code.count == 2, code == code.lowercased() else { throw fault("country key \"\(code)\" is not two lowercase letters") }
            guard country.fips.count == 2, country.fips == country.fips.uppercased(), country.fips.allSatisfy(\.isLetter) else {
                throw fault("country \(code): FIPS code \"\(country.fips)\" is not two capital letters")
            }
            if let other = seen.updateValue(code, forKey: country.fips) {
                throw fault("FIPS code \(country.fips) is given to both \(other) and \(code)")
            }
            if let unnamed = country.languages.first(where: { file.languages[$0] == nil }) {
                throw fault("country \(code): language \(unnamed) has no GDELT name")
            }
        }
        for category in HeadlineCategory.allCases where category != .general && (file.categoryThemes[category.rawValue] ?? []).isEmpty {
            throw fault("category \(category.rawValue) has no themes")
        }
        return GDELTCountryTable(countries: file.countries, languages: file.languages, categoryThemes: file.categoryThemes)
    }

    /// The ISO 639-1 code of a language name as GDELT writes it in articles ("French" → "fr").
    public func languageCode(named name: String) -> String? {
        codesByName[name.lowercased()]
    }
}

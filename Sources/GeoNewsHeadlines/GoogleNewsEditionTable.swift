import Foundation

/// A Google News edition: the `hl`, `gl` and `ceid` query parameters of its RSS address,
/// e.g. `hl=pt-BR`, `gl=BR`, `ceid=BR:pt-419`.
public struct GoogleNewsEdition: Codable, Sendable, Hashable {
    public var hl: String
    public var gl: String
    public var ceid: String

    /// The edition's base language, from `ceid` ("pt" for `BR:pt-419`, "zh" for `TW:zh-Hant`).
    public var language: String {
        let tag = ceid.split(separator: ":").last.map(String.init) ?? hl
        return tag.split(separator: "-").first.map { $0.lowercased() } ?? tag.lowercased()
    }
}

/// The Google News editions of the 54 news countries, loaded from
/// `Data/google-news-editions.json`.
public struct GoogleNewsEditionTable: Sendable {
    /// One country's editions; the first is its default.
    public struct Country: Codable, Sendable, Hashable {
        /// `false` when the country has no edition of its own and borrows a neighbour's.
        public var native: Bool
        public var editions: [GoogleNewsEdition]
    }

    /// Keyed by lowercase ISO 3166-1 alpha-2 code.
    public let countries: [String: Country]
    /// The country whose edition answers searches in a language ("en" → "us").
    public let searchEditions: [String: String]

    private struct File: Codable {
        var searchEditions: [String: String]
        var countries: [String: Country]
    }

    /// Reads and checks the table: every country has at least one edition whose `gl` is its
    /// own code (or, for a borrowed edition, `native` is false) and whose `ceid` starts with
    /// that `gl`. Throws `HeadlineError.editionTable` naming the file and the faulty country.
    public static func load(from url: URL) throws -> GoogleNewsEditionTable {
        let file = try JSONBody.decodeFile(File.self, at: url) { HeadlineError.editionTable(path: url.path, detail: $0) }
        for (code, country) in file.countries {
            guard code.count == 2, code == code.lowercased() else {
                throw HeadlineError.editionTable(path: url.path, detail: "country key \"\(code)\" is not two lowercase letters")
            }
            guard !country.editions.isEmpty else {
                throw HeadlineError.editionTable(path: url.path, detail: "country \(code) has no edition")
            }
            for edition in country.editions
            where !edition.ceid.hasPrefix(edition.gl + ":")
                || (country.native && edition.gl != code.uppercased())
            {
                throw HeadlineError.editionTable(
                    path: url.path, detail: "country \(code): edition \(edition.ceid) does not match gl=\(edition.gl)")
            }
        }
        for (language, code) in file.searchEditions where file.countries[code] == nil {
            throw HeadlineError.editionTable(path: url.path, detail: "search language \(language) names unknown country \(code)")
        }
        return GoogleNewsEditionTable(countries: file.countries, searchEditions: file.searchEditions)
    }

    /// The edition for `country` in `language` when it has one, else the country's default;
    /// `nil` for a country not in the table.
    public func edition(country: String, language: String? = nil) -> GoogleNewsEdition? {
        guard let editions = countries[country.lowercased()]?.editions else { return nil }
        if let language = language?.lowercased(), let match = editions.first(where: { $0.language == language }) {
            return match
        }
        return editions.first
    }

    /// The language key of region names (Natural Earth's codes, as `Region.name(in:)` takes
    /// them) in which `country`'s edition in `language` writes: "zht" for a Traditional
    /// Chinese edition, else the edition's two letters; `nil` for a country with no edition.
    public func nameLanguage(country: String, language: String? = nil) -> String? {
        guard let edition = edition(country: country, language: language) else { return nil }
        return edition.ceid.contains("Hant") ? "zht" : edition.language
    }

    /// The edition that answers searches in `language`, `nil` when no edition is listed for it.
    public func searchEdition(language: String) -> GoogleNewsEdition? {
        let language = language.lowercased()
        return searchEditions[language].flatMap { edition(country: $0, language: language) }
    }

    /// Where the table is, searched like the rest of Data/: `$GEONEWS_DATA/google-news-editions.json`;
    /// else `Data/google-news-editions.json` in the executable's folder or any folder above it;
    /// else `share/geonews/Data/` under the executable's prefix (the installed layouts); else `Data/` in the
    /// working directory or any folder above it. `nil` when none exists.
    public static func locate(environment: [String: String]) -> URL? {
        let name = "google-news-editions.json"
        if let folder = environment["GEONEWS_DATA"], !folder.isEmpty {
            return URL(fileURLWithPath: folder).appendingPathComponent(name)
        }
        func ancestors(_ start: URL) -> [URL] {
            var folders = [start]
            while folders.count < 12, let last = folders.last, last.path != "/" {
                folders.append(last.deletingLastPathComponent())
            }
            return folders
        }
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let folder = executable.deletingLastPathComponent()
            candidates += ancestors(folder).map { $0.appendingPathComponent("Data/" + name) }
            // The installed layouts, as DataDirectory.locate() searches them.
            let prefix = folder.deletingLastPathComponent()
            candidates.append(prefix.appendingPathComponent("share/geonews/Data/" + name))
            candidates.append(prefix.deletingLastPathComponent().appendingPathComponent("share/geonews/Data/" + name))
        }
        candidates += ancestors(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .map { $0.appendingPathComponent("Data/" + name) }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }
}

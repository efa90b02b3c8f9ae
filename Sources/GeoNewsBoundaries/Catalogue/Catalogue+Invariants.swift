import GeoNewsGeodesy

/// The rules a ``Catalogue`` keeps: the indexes, the resolver and every answer rely on them (a
/// country's position in the catalogue is its number in the index files, a news country needs
/// a code for its edition, a marker must lie in its own country). ``Catalogue/load(from:)``
/// checks them after every load in a debug build, `geonews-index --check` on the committed
/// catalogue, and `CatalogueInvariantTests` breaks each one on purpose.
package enum CatalogueRule: String, InvariantRule {
    package static let subject = "catalogue"
    /// Ids are unique and in ascending order (the files' order of countries).
    case order = "order"
    /// An id is three capitals or digits; a code, two or three capitals, or none.
    case codes = "codes"
    /// A sovereign's code is the code of a country of the catalogue.
    case sovereign = "sovereign"
    /// Every news country has a two-letter code.
    case news = "news"
    /// A bounding box lies on the sphere, south below north; the marker lies in it.
    case marker = "marker"
    /// Every entry has a non-empty name in each of the catalogue's languages.
    case names = "names"
}

/// The first broken rule of a catalogue, where, and how.
package typealias CatalogueProblem = InvariantProblem<CatalogueRule>

extension Catalogue {
    /// The first rule the catalogue breaks, or `nil`.
    package func problem() -> CatalogueProblem? {
        func isCode(_ s: String?, _ length: Int, digits: Bool = false) -> Bool {
            guard let s else { return true }
            return s.utf8.count == length && s.utf8.allSatisfy { (65...90).contains($0) || (digits && (48...57).contains($0)) }
        }
        let codes = Set(countries.compactMap(\.iso2))
        for (k, c) in countries.enumerated() {
            if k > 0, countries[k - 1].id >= c.id {
                return CatalogueProblem(rule: .order, detail: "'\(c.id)' (entry \(k)) follows '\(countries[k - 1].id)'")
            }
            guard !c.id.isEmpty, isCode(c.id, 3, digits: true), isCode(c.iso2, 2), isCode(c.iso3, 3), isCode(c.sovereignIso2, 2) else {
                return CatalogueProblem(
                    rule: .codes,
                    detail: "'\(c.id)' has codes \(c.iso2 ?? "none"), \(c.iso3 ?? "none"), sovereign \(c.sovereignIso2 ?? "none")")
            }
            if let sovereign = c.sovereignIso2, !codes.contains(sovereign) {
                return CatalogueProblem(rule: .sovereign, detail: "'\(c.id)' names sovereign '\(sovereign)', which no entry has")
            }
            if c.hasNews && c.iso2 == nil {
                return CatalogueProblem(rule: .news, detail: "'\(c.id)' has news and no two-letter code")
            }
            let box = c.bbox, m = c.marker
            let onSphere =
                box.west >= -180 && box.west <= 180 && box.east >= -180 && box.east <= 180 && box.south >= -90
                && box.south <= box.north && box.north <= 90
            let inside =
                m.latitude >= box.south && m.latitude <= box.north
                && (box.west <= box.east
                    ? m.longitude >= box.west && m.longitude <= box.east : m.longitude >= box.west || m.longitude <= box.east)
            guard onSphere, inside else {
                return CatalogueProblem(
                    rule: .marker,
                    detail: "'\(c.id)' has its marker at \(m.latitude), \(m.longitude) and its box "
                        + "\(box.west), \(box.south), \(box.east), \(box.north)")
            }
            for language in languages where (c.names[language] ?? "").isEmpty {
                return CatalogueProblem(rule: .names, detail: "'\(c.id)' has no name in '\(language)'")
            }
        }
        return nil
    }
}

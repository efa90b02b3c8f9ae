import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsData
import GeoNewsGeodesy
import GeoNewsHeadlines

/// What `--near LAT,LON` and `--region CODE` ask the providers for: the news country, and the
/// names of the town and the region as that country's edition writes them.
struct LocalTarget {
    var area: LocalArea
    /// "Lyon, Auvergne-Rhône-Alpes" for the listing's title.
    var label: String

    /// The position's town (the most populous place within 15 km, see
    /// ``PlaceIndex/town(for:)``) and region, searched in its suggested news country's edition.
    /// A bad position is a usage error naming it; missing data exits 65.
    static func near(_ text: String, data: String?, editions: GoogleNewsEditionTable, language: String?) throws -> LocalTarget {
        let position: Coordinate
        do {
            position = try Coordinate(parsingPair: text)
        } catch {
            throw fail("near: \(error)", .usage)
        }
        let directory = try Self.directory(data)
        let (resolution, town, region) = try Self.loading(directory) { d throws(DataError) in
            let resolution = try CountryResolver.load(from: d, options: .singlePosition).resolve(position)
            let town = try PlaceIndex.load(from: d).town(for: resolution)
            let region = try resolution.country == nil ? nil : RegionIndex.load(from: d).region(for: resolution)
            return (resolution, town, region)
        }
        let suggested = resolution.suggestion.country
        let country = (suggested.iso2 ?? suggested.id).lowercased()
        let key = editions.nameLanguage(country: country, language: language)
        let regionName = region?.region.name(in: key)
        let area = LocalArea(country: country, region: regionName, town: town?.place.name)
        return LocalTarget(area: area, label: [town?.place.name, regionName].compactMap { $0 }.joined(separator: ", "))
    }

    /// The region with this ISO 3166-2 or GeoNames code, searched in its country's edition; an
    /// unknown code, or a region outside the 54 news countries, is a usage error naming it.
    static func region(_ code: String, data: String?, editions: GoogleNewsEditionTable, language: String?) throws -> LocalTarget {
        let directory = try Self.directory(data)
        let catalogue = try Self.loading(directory) { d throws(DataError) in try RegionCatalogue.load(from: d) }
        guard code.utf8.count <= 16, let region = catalogue.region(code: code) else {
            throw fail(
                "region '\(code.prefix(40))' is not an ISO 3166-2 or GeoNames admin1 code of a known region (see geonews regions)", .usage)
        }
        let country = region.country.lowercased()
        guard editions.countries[country] != nil else {
            throw fail("region '\(code)' (\(region.name)) is in \(country), which is not one of the 54 news countries", .usage)
        }
        let name = region.name(in: editions.nameLanguage(country: country, language: language))
        return LocalTarget(area: LocalArea(country: country, region: name), label: name)
    }

    private static func directory(_ path: String?) throws -> DataDirectory {
        do {
            return try path.map { DataDirectory(path: $0) } ?? DataDirectory.locate()
        } catch {
            throw fail("\(error)", .dataError)
        }
    }

    private static func loading<T>(_ directory: DataDirectory, _ read: (DataDirectory) throws(DataError) -> T) throws -> T {
        do {
            return try read(directory)
        } catch {
            throw fail("\(error)", .dataError)
        }
    }
}

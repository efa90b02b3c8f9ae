import GeoNewsBoundaries
import GeoNewsTraces

extension PointFile {
    /// The news-country markers as points: what a news map clusters by default. Ids are the
    /// ISO alpha-2 codes, names the English names, in catalogue order.
    public static func newsMarkers(of catalogue: Catalogue) -> PointFile {
        var markers = PointFile()
        for country in catalogue.newsCountries {
            markers.coordinates.append(country.marker)
            markers.ids.append(country.iso2 ?? country.id)
            markers.names.append(country.name)
        }
        return markers
    }
}

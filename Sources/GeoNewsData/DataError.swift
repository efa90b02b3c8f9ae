/// Why the data under `Data/` could not be used. Never a wrong answer: a stale or damaged file
/// stops the load with one of these.
public enum DataError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(searched: [String])
    case unreadable(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case stale(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let searched):
            return "GeoNews data not found (looked in \(searched.joined(separator: ", "))); set GEONEWS_DATA to the Data directory"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason); \(Self.remedy(for: path))"
        case .corrupt(let path, let reason):
            return "\(path) is damaged: \(reason); \(Self.remedy(for: path))"
        case .stale(let path, let reason):
            return "\(path) is out of date: \(reason); \(Self.remedy(for: path))"
        }
    }

    /// The command that makes the file at `path`: the files too large to commit are built on
    /// first use by `Scripts/ensure-areas` (or installed by the Debian package), the committed
    /// ones by the data scripts and `geonews-index`.
    static func remedy(for path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        switch name {
        case "area-index.bin", "land-index.bin":
            return "run `geonews data install` (or Scripts/ensure-areas in a GeoNews checkout), or install the geonews package"
        case "area-index.pack":
            return "it comes with GeoNews's Data/ folder: use a complete checkout, or rebuild it with `geonews-index --pack`"
        case "land-index.pack":
            return "it comes with GeoNews's Data/ folder: use a complete checkout, or rebuild it with `geonews-index --land-pack`"
        case "places.tsv.gz", "regions.json", "regions.bin":
            return "it comes with GeoNews's Data/ folder: use a complete checkout, or rebuild it with `python3 Scripts/build_regions.py`"
        case "places.bin":
            return "it is built from Data/places.tsv.gz on first use: make its folder writable, or run `geonews data install --to DIR`"
        case "osm-land.wkb":
            return "make it with `python3 Scripts/build_land.py --fetch` in a GeoNews checkout"
        case "country-areas.bin", "timezone-boundaries.bin":
            return "build it with Scripts/ensure-areas --rebuild in a GeoNews checkout, or install the geonews package"
        default:
            return "rebuild it with Scripts/build_data.py and `swift run -c release geonews-index`"
        }
    }
}

import ArgumentParser
import GeoNewsBoundaries
import GeoNewsBoundaryBuilding
import GeoNewsData

#if canImport(Glibc)
import Glibc
#endif

/// `geonews-index`: builds the data the resolver reads, with GEOS, at build time only.
///
/// With no mode it builds `Data/country-index.bin` from `Data/boundaries.bin`, compiles
/// `Data/countries.json` into `Data/catalogue.bin` and simplifies the boundaries into
/// `Data/basemap.geojson`, the web map's base layer; `--check` compares them with the committed
/// files instead and verifies the area and land indexes. The other modes build one thing each.
/// Exit codes: 0 done, 1 a check failed or an input the mode needs is missing, 64 bad usage,
/// 65 a data file cannot be read, 74 an output cannot be written.
@main
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geonews-index",
        abstract: "Build the country, area and land indexes, the catalogue and the base map (build time only).",
        discussion: """
            With no mode: Data/country-index.bin, Data/catalogue.bin and Data/basemap.geojson, \
            rebuilt in place, or with --check compared with the committed files (exit 1 when one \
            differs), together with the checksum and layout of every byte of the country, area and \
            land indexes and their records Data/area-index.json and Data/land-index.json.
            """
    )

    /// What to build; one at most.
    enum Mode: String, EnumerableFlag {
        case areas, areaIndex, pack, land, landPack

        /// The flag that asks for it.
        var flag: String {
            switch self {
            case .areas: "--areas"
            case .areaIndex: "--area-index"
            case .pack: "--pack"
            case .land: "--land"
            case .landPack: "--land-pack"
            }
        }

        static func name(for value: Mode) -> NameSpecification { [.customLong(String(value.flag.dropFirst(2)))] }

        static func help(for value: Mode) -> ArgumentHelp? {
            switch value {
            case .areas:
                "Split the time zones into country areas (every decision printed) into GEOMETRY/country-areas.bin, then build the area index."
            case .areaIndex: "Only the area index: GEOMETRY/area-index.bin from GEOMETRY/country-areas.bin, and Data/area-index.json."
            case .pack: "Data/area-index.pack, the committed encoding of GEOMETRY/area-index.bin that a first run unpacks."
            case .land:
                "The land index: GEOMETRY/land-index.bin from OpenStreetMap's land (GEOMETRY/osm-land.wkb, Scripts/build_land.py), named by the regions of GEOMETRY/area-index.bin, and Data/land-index.json."
            case .landPack: "Data/land-index.pack, the committed encoding of GEOMETRY/land-index.bin."
            }
        }
    }

    @Flag(exclusivity: .exclusive) var mode: Mode?

    @Flag(help: "Compare the built files with the committed ones and verify the indexes, instead of writing them (no mode only).")
    var check = false

    @Option(help: ArgumentHelp("The data directory (default: located as the geonews command locates it).", valueName: "dir"))
    var data: String?

    @Option(
        help: ArgumentHelp(
            "The folder of the decoded geometry and the built indexes (default: .build-data beside Data/).", valueName: "dir"))
    var geometry: String?

    func validate() throws {
        if check, let mode { throw ValidationError("--check goes with no mode, not with \(mode.flag)") }
    }

    func run() {
        do {
            let dir = try data.map { DataDirectory(path: $0) } ?? DataDirectory.locate()
            let folder = geometry ?? dir.buildFolder
            switch mode {
            case .areas:
                try buildAreas(data: dir, folder: folder)
                try buildAreaIndex(data: dir, folder: folder)
            case .areaIndex: try buildAreaIndex(data: dir, folder: folder)
            case .land: try buildLandIndex(data: dir, folder: folder)
            case .landPack: try packLandIndex(data: dir, folder: folder)
            case .pack: try packAreaIndex(data: dir, folder: folder)
            case nil: try buildCountryIndex(data: dir, folder: folder, check: check)
            }
        } catch {
            fail("\(error)", code: 65)
        }
    }
}

import ArgumentParser
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsData

#if canImport(Glibc)
import Glibc
#endif

/// `geonews data`: the area and land indexes a first run needs, unpacked from the committed packs.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract:
            "Install the area and land indexes (area-index.bin, land-index.bin), the place index (places.bin) and the regions' edge index (region-edges.bin) the resolver reads, or locate them.",
        subcommands: [DataInstallCommand.self, DataPathCommand.self]
    )
}

/// `geonews data install [--to DIR]`.
struct DataInstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract:
            "Unpack Data/area-index.pack and Data/land-index.pack, and index Data/places.tsv.gz and Data/regions.bin, into the cache (or --to DIR).",
        discussion: """
            Writes area-index.bin and land-index.bin to $XDG_CACHE_HOME/geonews/<data id>/ (else \
            ~/.cache/geonews/<data id>/), the data id being the checksum Data/area-index.json records. Nothing \
            is downloaded. Each file is checked against its record (Data/area-index.json, Data/land-index.json) \
            before it is renamed into place; an index already there and intact is kept. What is written \
            leaves the page cache once on disk, and checking an index already there leaves the cache as \
            it was: a run then holds only the pages of the indexes it reads. Beside them, \
            places.bin: GeoNames' places of Data/places.tsv.gz for the nearest town (built in under a \
            second; kept while it matches that file's gzip checksum), and region-edges.bin: the edges of \
            Data/regions.bin by band and by cell, for answering many positions (about 0.1 s; kept while it \
            matches that file's size and CRC-32). Prints the area index's path. Exits 65 when a pack, \
            places.tsv.gz or regions.bin is missing or damaged, or the folder cannot be written.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The folder to hold area-index.bin, land-index.bin, places.bin and region-edges.bin (default: the cache folder).",
            valueName: "dir"))
    var to: String?

    @OptionGroup var data: DataOptions

    func run() async throws {
        let directory = try data.directory()
        do {
            let area = try directory.installAreaIndex(into: to)
            let folder = String(area.dropLast(AreaIndexRecord.fileName.count + 1))
            let places = try PlaceIndex.load(source: directory.file("places.tsv.gz"), index: folder + "/places.bin")
            // load() keeps an index it cannot write in memory; here the file is the point.
            guard places.path == folder + "/places.bin" else {
                throw DataError.unreadable(
                    path: folder + "/places.bin", reason: "cannot write it (\(places.count) places indexed in memory)")
            }
            try RegionIndex(path: directory.file(RegionIndex.fileName)).installEdgeIndex(into: folder)
            print(area)
        } catch {
            throw fail("\(error)", .dataError)
        }
    }
}

/// `geonews data path`.
struct DataPathCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print where the resolver reads area-index.bin (land-index.bin lies beside it); exit 65 if it is not there.",
        discussion:
            "Without an index there, names the path the resolver looked at (outside a checkout, the cache path `geonews data install` writes)."
    )

    @OptionGroup var data: DataOptions

    func run() async throws {
        let directory = try data.directory()
        let path = directory.areaIndexFolder + "/" + AreaIndexRecord.fileName
        guard access(path, R_OK) == 0 else {
            throw fail("\(path) is missing; run `geonews data install`", .dataError)
        }
        print(path)
    }
}

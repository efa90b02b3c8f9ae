import GeoNewsBoundaries
import GeoNewsBoundaryBuilding
import GeoNewsData
import GeoNewsTimeZones

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String, code: Int32) -> Never {
    let line = "geonews-index: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(code)
}

/// Splits the time zones into country areas, printing every decision, and writes
/// `country-areas.bin` in `folder`.
func buildAreas(data dir: DataDirectory, folder: String) throws {
    let started = timespec.now
    let (bytes, regions, decisions) = try CountryAreaSplitter().build(data: dir, geometryFolder: folder) { zone in
        if zone % 20 == 0 { progress("country areas: zone \(zone) of 444… \(format3(timespec.now - started)) s") }
    }
    for d in decisions { print(d) }
    progress("")
    let target = folder + "/" + CountryAreaFile.fileName
    write(bytes, to: target)
    print(
        "\(regions) regions from the zones, \(decisions.count) decisions, in \(format3(timespec.now - started)) s; "
            + "wrote \(target) (\(bytes.count) bytes)")
}

/// Packs `land-index.bin` in `folder` into `Data/land-index.pack`.
func packLandIndex(data dir: DataDirectory, folder: String) throws {
    let source = folder + "/" + LandIndexFormat.fileName
    try pack(source, into: dir.file(LandIndexPack.fileName)) { try LandIndexPack.encode($0, path: source) }
}

/// Packs `area-index.bin` in `folder` into `Data/area-index.pack`.
func packAreaIndex(data dir: DataDirectory, folder: String) throws {
    try pack(folder + "/" + AreaIndexRecord.fileName, into: dir.file(AreaIndexPack.fileName)) { try AreaIndexPack.encode(Array($0)) }
}

/// Maps `source`, writes `encode` of its bytes to `target` and says so.
func pack(_ source: String, into target: String, _ encode: (UnsafeRawBufferPointer) throws -> [UInt8]) throws {
    let index = try MappedFile(path: source)
    let started = timespec.now
    let bytes = try withExtendedLifetime(index) { try encode(index.bytes) }
    write(bytes, to: target)
    print("packed \(source) (\(index.bytes.count) bytes) into \(target) (\(bytes.count) bytes) in \(format3(timespec.now - started)) s")
}

/// Builds the country index, the compiled catalogue and the base map into `Data/`, or with
/// `check` compares them with the committed files (exit 1 when one differs) after verifying the
/// area and land indexes in `folder` and the country index and base map committed.
func buildCountryIndex(data dir: DataDirectory, folder: String, check: Bool) throws {
    let catalogue = try Catalogue.loadJSON(from: dir)
    let boundaries = try BoundaryFile(directory: dir)
    let started = timespec.now
    let (bytes, report) = try CountryIndexBuilder().build(boundaries: boundaries, catalogueIDs: catalogue.countries.map(\.id))
    let seconds = timespec.now - started
    print(
        "built in \(format3(seconds)) s: \(report.countryCells) whole-country and \(report.seaCells) sea root cells, "
            + "\(report.nodes) split nodes (\(report.nodeSlots) child slots), \(report.leaves) border leaves, \(report.groups) country parts, "
            + "\(report.rings) rings, \(report.vertices) vertices")
    let basemap = try BasemapBuilder().build(boundaries: boundaries, countries: catalogue.countries)
    let outputs = [
        ("country-index.bin", bytes), ("catalogue.bin", try Catalogue.compiled(from: dir)), ("basemap.geojson", basemap),
    ]
    if check {
        if let problem = catalogue.problem() { fail("\(dir.file("countries.json")): \(problem)", code: 1) }
        print("\(dir.file("countries.json")) keeps the catalogue's rules (\(catalogue.countries.count) entries)")
        try checkAreaIndex(data: dir, folder: folder)
        try checkLandIndex(data: dir, folder: folder)
        // Loads check only the header; the whole-file checksum and layout are checked here.
        try CountryIndex(path: dir.file("country-index.bin"), catalogueIDs: catalogue.countries.map(\.id)).verify()
        print("\(dir.file("country-index.bin")) passes its checksum, layout and leaf checks")
        try checkBasemap(at: dir.file("basemap.geojson"))
    }
    for (name, content) in outputs {
        let target = dir.file(name)
        if check {
            let existing = try? MappedFile(path: target)
            let same = existing.map { file in withExtendedLifetime(file) { file.bytes.elementsEqual(content) } } ?? false
            guard same else {
                fail("\(target) differs from what the build produces; run `swift run -c release geonews-index`", code: 1)
            }
            print("\(target) is up to date")
        } else {
            write(content, to: target)
            print("wrote \(target) (\(content.count) bytes)")
        }
    }
}

/// Builds `area-index.bin` from `country-areas.bin` in `folder` and records it in
/// `Data/area-index.json`.
func buildAreaIndex(data dir: DataDirectory, folder: String) throws {
    let catalogue = try Catalogue.loadJSON(from: dir)
    let zones = try TimeZoneCatalogue.load(from: dir)
    let areaFile = try CountryAreaFile(path: folder + "/" + CountryAreaFile.fileName)
    let started = timespec.now
    let (bytes, report) = try AreaIndexBuilder().build(
        areas: areaFile, catalogueIDs: catalogue.countries.map(\.id),
        zoneIDs: zones.zones.map(\.id)
    ) { row in
        progress("area index: \(row * 10)° of 180° of latitude… \(format3(timespec.now - started)) s")
    }
    progress("")
    let target = folder + "/" + AreaIndexRecord.fileName
    write(bytes, to: target)
    let record = AreaIndexRecord(of: bytes)
    write(Array(record.json.utf8), to: dir.file(AreaIndexRecord.recordName))
    print(
        "area index built in \(format3(timespec.now - started)) s: \(report.regions) regions, \(report.regionCells) whole root cells, "
            + "\(report.nodes) split nodes (\(report.nodeSlots) child slots), \(report.leaves) leaves, \(report.groups) region parts, "
            + "\(report.rings) rings, \(report.vertices) vertices, \(report.countryEdges) country edges; "
            + "wrote \(target) (\(bytes.count) bytes) and \(dir.file(AreaIndexRecord.recordName))")
}

/// Builds `land-index.bin` in `folder` from OpenStreetMap's land there and the area index beside
/// it, and records it in `Data/land-index.json`.
func buildLandIndex(data dir: DataDirectory, folder: String) throws {
    let ids = try Catalogue.loadJSON(from: dir).countries.map(\.id)
    let zones = try TimeZoneCatalogue.load(from: dir).zones.map(\.id)
    let areas = try AreaIndex(path: folder + "/" + AreaIndexRecord.fileName, catalogueIDs: ids, zoneIDs: zones)
    let naturalEarth = try CountryIndex(path: dir.file("country-index.bin"), catalogueIDs: ids, boundaries: BoundaryFile(directory: dir))
    let source = folder + "/" + LandIndexFormat.sourceName
    guard let land = try? MappedFile(path: source) else {
        fail("\(source) is missing; make it with `python3 Scripts/build_land.py --fetch`", code: 1)
    }
    let started = timespec.now
    let (bytes, report) = try withExtendedLifetime(land) {
        try LandIndexBuilder().build(land: land.bytes, path: source, areas: areas, naturalEarth: naturalEarth, catalogueIDs: ids) {
            done, all in
            if done % 24 == 0 || done == all { progress("land index: tile \(done) of \(all)… \(format3(timespec.now - started)) s") }
        }
    }
    progress("")
    let target = folder + "/" + LandIndexFormat.fileName
    write(bytes, to: target)
    let record = bytes.withUnsafeBytes { AreaIndexRecord.land(of: $0) }
    write(Array(record.json.utf8), to: dir.file(LandIndexFormat.recordName))
    let i = report.index
    print(
        "land index built in \(format3(timespec.now - started)) s from \(report.polygons) polygons (\(report.sourceVertices) vertices): "
            + "\(i.countryCells) whole-country and \(i.seaCells) sea root cells, \(i.nodes) split nodes (\(i.nodeSlots) child slots), "
            + "\(i.leaves) leaves, \(i.groups) country parts, \(i.rings) rings, \(i.vertices) vertices; "
            + "\(report.splitForCountries) cells split where countries meet, \(report.partsByPoint) parts named by a point "
            + "(\(report.partsByNaturalEarth) by Natural Earth's land); wrote \(target) (\(bytes.count) bytes) and \(dir.file(LandIndexFormat.recordName))"
    )
}

/// Exit 1 unless `area-index.bin` in `folder` is the one `Data/area-index.json` records; throws
/// unless it passes ``AreaIndex/verify()``.
func checkAreaIndex(data dir: DataDirectory, folder: String) throws {
    let path = folder + "/" + AreaIndexRecord.fileName
    let recorded = try AreaIndexRecord.load(from: dir)
    guard let file = try? MappedFile(path: path) else {
        fail("\(path) is missing; build it with Scripts/ensure-areas", code: 1)
    }
    let actual = withExtendedLifetime(file) { AreaIndexRecord(of: file.bytes) }
    guard actual == recorded else {
        fail(
            "\(path) is not the one \(dir.file(AreaIndexRecord.recordName)) records (\(actual.bytes) bytes, checksum \(actual.checksum)); "
                + "rebuild it with `geonews-index --area-index`", code: 1)
    }
    print("\(path) is the one the record names (\(actual.bytes) bytes, checksum \(actual.checksum))")
    // Loads check only the header; the whole-file checksum and the layout are checked here.
    let index = try AreaIndex(
        path: path, catalogueIDs: try Catalogue.loadJSON(from: dir).countries.map(\.id),
        zoneIDs: try TimeZoneCatalogue.load(from: dir).zones.map(\.id))
    try index.verify()
    print("\(path) passes its checksum, layout and leaf checks")
}

/// Exit 1 unless `land-index.bin` in `folder` is the one `Data/land-index.json` records; throws
/// unless it passes ``CountryIndex/verify()``.
func checkLandIndex(data dir: DataDirectory, folder: String) throws {
    let path = folder + "/" + LandIndexFormat.fileName
    let recorded = try AreaIndexRecord.load(from: dir, recordName: LandIndexFormat.recordName)
    guard let file = try? MappedFile(path: path) else {
        fail("\(path) is missing; build it with Scripts/ensure-areas", code: 1)
    }
    let actual = withExtendedLifetime(file) { AreaIndexRecord.land(of: file.bytes) }
    guard actual == recorded else {
        fail(
            "\(path) is not the one \(dir.file(LandIndexFormat.recordName)) records (\(actual.bytes) bytes, checksum \(actual.checksum)); "
                + "rebuild it with `geonews-index --land`", code: 1)
    }
    print("\(path) is the one the record names (\(actual.bytes) bytes, checksum \(actual.checksum))")
    try CountryIndex(path: path, catalogueIDs: try Catalogue.loadJSON(from: dir).countries.map(\.id)).verify()
    print("\(path) passes its checksum, layout, leaf and coast-mark checks")
}

/// Exit 1 unless the committed base map is valid geometry wound by RFC 7946's right-hand rule.
func checkBasemap(at path: String) throws {
    let file = try MappedFile(path: path)
    let check = try withExtendedLifetime(file) { try BasemapCheck(geojson: Array(file.bytes), path: path) }
    guard check.faults.isEmpty else {
        fail(
            "\(path) is not valid GeoJSON geometry (\(check.faults.count) faults): "
                + check.faults.prefix(5).joined(separator: "; "), code: 1)
    }
    print(
        "\(path): \(check.features) features, \(check.shells) shells and \(check.holes) holes, "
            + "valid, shells counter-clockwise and holes clockwise")
}

/// A progress line on standard error: rewritten in place on a terminal, one line each otherwise.
func progress(_ line: String) {
    let text = isatty(2) != 0 ? "\r\u{1B}[K" + line : line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// Writes `content` to `target` through a temporary file renamed over it; exit 74 on failure.
func write(_ content: [UInt8], to target: String) {
    let tmp = target + ".tmp"
    guard let f = fopen(tmp, "wb") else { fail("cannot write \(tmp)", code: 74) }
    let written = content.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    guard fclose(f) == 0, written == content.count, rename(tmp, target) == 0 else { fail("cannot write \(target)", code: 74) }
}

func format3(_ x: Double) -> String {
    let ms = Int((x * 1000).rounded())
    return "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
}

extension timespec {
    static var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

import GeoNews

// consumer --lat LAT --lon LON
//
// Prints the ISO 3166-1 alpha-2 code of the country or territory holding the position (its land
// or its 12-nautical-mile territorial sea), the position's IANA time zone, the nearest
// populated place (GeoNames) in that country and its region's code (ISO 3166-2, else GeoNames'
// admin1), tab-separated:
//
//     ZA	Africa/Johannesburg	Cape Town	ZA-WC
//
// `-` stands for no code (beyond every territorial sea, or in one of the few territories
// without an alpha-2 code: Bir Tawil, Spratly Islands), for no place (at sea, none within
// 50 km) and for no region (no country). Exit codes, as geonews's own:
// 0 done; 64 bad usage (the message names the argument); 65 the data cannot be found or read
// (the message names the file and the command that makes it).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = "usage: consumer --lat LAT --lon LON"

/// Writes one line to standard error and leaves with `code`.
func fail(_ message: String, code: Int32) -> Never {
    let line = "consumer: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(code)
}

/// The resolver over the data wherever the library finds it: `$GEONEWS_DATA`, a `Data/` folder
/// above the executable or the working directory, or the installed layouts. The area index is
/// looked for in the build folder, the installed folder and the XDG cache; when none holds it,
/// ``DataDirectory/installAreaIndex(into:)`` unpacks it once into the cache (a second or two)
/// and the load is tried again. The one place that knows where the data lives.
/// The place index is built beside the area index on first use (``PlaceIndex/load(from:)``);
/// the region index is read as it is (``RegionIndex/load(from:)``).
func loadResolver() throws(DataError) -> (CountryResolver, PlaceIndex, RegionIndex) {
    let data = try DataDirectory.locate()
    if let resolver = try? CountryResolver.load(from: data) {
        return (resolver, try PlaceIndex.load(from: data), try RegionIndex.load(from: data))
    }
    _ = try data.installAreaIndex()
    return (try CountryResolver.load(from: data), try PlaceIndex.load(from: data), try RegionIndex.load(from: data))
}

/// The values of `--lat` and `--lon` (also as `--lat=…`), or a message naming what is wrong.
func parse(_ arguments: [String]) -> Result<(lat: String, lon: String), CommandLineError> {
    var values: [String: String] = [:]
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        let (name, inline) =
            argument.firstIndex(of: "=").map {
                (String(argument[..<$0]), Optional(String(argument[argument.index(after: $0)...])))
            } ?? (argument, nil)
        guard name == "--lat" || name == "--lon" else { return .failure(.unexpected(argument)) }
        guard values[name] == nil else { return .failure(.repeated(name)) }
        guard let value = inline ?? rest.popFirst() else { return .failure(.missingValue(name)) }
        values[name] = value
    }
    guard let lat = values["--lat"] else { return .failure(.missingOption("--lat")) }
    guard let lon = values["--lon"] else { return .failure(.missingOption("--lon")) }
    return .success((lat, lon))
}

/// Why the command line is not `--lat LAT --lon LON`.
enum CommandLineError: Error, CustomStringConvertible {
    case unexpected(String)
    case repeated(String)
    case missingValue(String)
    case missingOption(String)

    var description: String {
        switch self {
        case .unexpected(let argument): "unexpected argument '\(argument)' (\(usage))"
        case .repeated(let name): "\(name) given twice (\(usage))"
        case .missingValue(let name): "\(name) needs a value (\(usage))"
        case .missingOption(let name): "\(name) is missing (\(usage))"
        }
    }
}

let position: Coordinate
switch parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    fail(error.description, code: 64)
case .success(let text):
    do {
        position = try Coordinate(parsingLatitude: text.lat, longitude: text.lon)
    } catch {
        fail(error.description, code: 64)
    }
}

let resolver: CountryResolver
let places: PlaceIndex
let regions: RegionIndex
do {
    (resolver, places, regions) = try loadResolver()
} catch {
    fail(error.description, code: 65)
}

let resolution = resolver.resolve(position)
let code = resolution.country?.iso2 ?? "-"
let place = places.place(for: resolution)?.place.name ?? "-"
let region = regions.region(for: resolution)?.region.code ?? "-"
print("\(code)\t\(resolver.timeZone(position))\t\(place)\t\(region)")

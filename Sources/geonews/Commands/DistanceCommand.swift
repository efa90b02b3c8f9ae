import ArgumentParser
import GeoNewsBoundaries
import GeoNewsCommandLine
import GeoNewsGeodesy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `geonews distance LAT,LON LAT,LON`: how far, and in which direction.
struct DistanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distance",
        abstract: "Distance and bearing from one position to another.",
        discussion: """
            Positions are LAT,LON in degrees; negative values work as typed: \
            `geonews distance -33.9,18.4 51.5,-0.1`. The great-circle distance is on the \
            mean-radius sphere (6371.0088 km), within 0.6 % of the ellipsoid. --ellipsoid adds \
            the WGS 84 geodesic by Karney's method (GeographicLib's algorithm, agreeing with it \
            to well under a millimetre) and its azimuths at both ends.
            JSON keys: from, to ({lat, lon}); greatCircle ({distanceKm, initialBearing}); \
            geodesic (null without --ellipsoid, else {distanceM, distanceKm, initialAzimuth, \
            finalAzimuth}). Bearings and azimuths are degrees clockwise from north, 0 to 360.
            Exit codes: 0 done, 64 bad input.
            """
    )

    // `.allUnrecognized` rather than a plain positional: ArgumentParser takes a word that
    // starts with "-" for an option, so `-33.9,18.4` would be refused before `run`. This
    // collects every word that is not --ellipsoid, --json or --help, and `endpoints()`
    // sorts out what is a position and what is a mistyped option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Start and end, each LAT,LON in degrees.", valueName: "lat,lon"))
    var words: [String] = []

    @Flag(help: "Also give the WGS 84 geodesic distance and azimuths.")
    var ellipsoid = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let (start, end): (Coordinate, Coordinate)
        do {
            (start, end) = try endpoints()
        } catch {
            throw fail(error.description, .usage)
        }
        let report = DistanceReport(from: start, to: end, ellipsoid: ellipsoid)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(DistanceSummary(report, start: start, end: end).text)
        }
    }

    /// The two positions among the collected words, or a message naming the word at fault.
    func endpoints() throws(UsageMessage) -> (Coordinate, Coordinate) {
        // A "--" before the positions is the usual way to end options; it is not a position.
        let values = words.first == "--" ? Array(words.dropFirst()) : words
        if let option = values.first(where: { $0.hasPrefix("-") && !Coordinate.looksLikeNegativeNumber($0) }) {
            throw UsageMessage(description: "unknown option '\(option)'")
        }
        switch values.count {
        case 0:
            throw UsageMessage(description: "missing the start and end positions: geonews distance LAT,LON LAT,LON")
        case 1:
            throw UsageMessage(description: "missing the end position after '\(values[0])': geonews distance LAT,LON LAT,LON")
        case 2:
            return (try position(values[0], role: "start"), try position(values[1], role: "end"))
        default:
            throw UsageMessage(description: "unexpected third position '\(values[2])': geonews distance takes two, LAT,LON LAT,LON")
        }
    }

    private func position(_ word: String, role: String) throws(UsageMessage) -> Coordinate {
        do {
            return try Coordinate(parsingPair: word)
        } catch {
            throw UsageMessage(description: "\(role) \(error)")
        }
    }

    /// A bad command line, in the one line `fail` prints.
    struct UsageMessage: Error, CustomStringConvertible {
        let description: String
    }
}

/// The human summary of `geonews distance`.
struct DistanceSummary {
    let text: String

    init(_ r: DistanceReport, start: Coordinate, end: Coordinate) {
        var lines = [
            "From       \(DistanceText.position(start))",
            "To         \(DistanceText.position(end))",
            String(
                cFormat: "Distance   %.1f km on the great circle (sphere of radius %.4f km)", r.greatCircle.distanceKm,
                GreatCircle.meanEarthRadiusKm),
            String(cFormat: "Bearing    %.1f° initial", r.greatCircle.initialBearing),
        ]
        if let g = r.geodesic {
            lines.append(String(cFormat: "Geodesic   %.6f km on the WGS 84 ellipsoid", g.distanceKm))
            lines.append(String(cFormat: "Azimuths   %.6f° initial, %.6f° final", g.initialAzimuth, g.finalAzimuth))
        }
        text = lines.joined(separator: "\n")
    }
}

import GeoNewsBoundaries
import GeoNewsGeodesy

@testable import GeoNewsTraces

/// A resolver for pipeline tests whose answers are obvious: a few countries as latitude and
/// longitude boxes, checked in order; everywhere else is sea, suggested "XX" at 1000 km.
struct BoxResolver: CountryResolving {
    struct Box {
        let country: Country
        let south, north, west, east: Double
    }

    let boxes: [Box]
    let sea = BoxResolver.country("XX")

    static func country(_ iso2: String) -> Country {
        Country(
            id: iso2 + "X", iso2: iso2, iso3: iso2 + "X", name: iso2, names: [:], continent: "Test",
            sovereign: iso2, sovereignIso2: iso2, hasNews: true,
            marker: Coordinate(latitude: 0, longitude: 0),
            bbox: BoundingBox(west: 0, south: 0, east: 0, north: 0))
    }

    init() {
        boxes = [
            Box(country: Self.country("AA"), south: 0, north: 10, west: 0, east: 10),
            Box(country: Self.country("BB"), south: 0, north: 10, west: 10, east: 20),
            Box(country: Self.country("CC"), south: -10, north: 0, west: 0, east: 20),
        ]
    }

    func resolve(_ p: Coordinate) -> Resolution {
        for b in boxes where p.latitude >= b.south && p.latitude < b.north && p.longitude >= b.west && p.longitude < b.east {
            return Resolution(
                position: p, country: b.country, nearest: nil,
                suggestion: Suggestion(country: b.country, reason: .inside, distanceKm: 0))
        }
        return Resolution(
            position: p, country: nil, nearest: nil,
            suggestion: Suggestion(country: sea, reason: .nearestMarker, distanceKm: 1000))
    }
}

/// Runs a batch over in-memory input and returns the output text and the summary.
func resolveBatch(
    _ input: String, name: String = "input.csv", resolver: any CountryResolving = BoxResolver(),
    configure: (inout BatchResolveOptions) -> Void = { _ in }
) throws -> (text: String, summary: BatchSummary) {
    var options = BatchResolveOptions()
    options.followsTraces = true
    configure(&options)
    let collected = CollectedBytes()
    let summary = try BatchResolver(resolver: resolver, options: options)
        .run(inputs: [.bytes(Array(input.utf8), name: name)], output: .memory(collected))
    return (collected.text, summary)
}

/// Output lines without the trailing empty one.
func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}

import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsTraces

/// End to end against the real boundaries and index in Data/.
final class TraceJourneyTests: XCTestCase {
    static let resolver: CountryResolver? = try? CountryResolver.load(from: DataDirectory.locate(), options: .batch)

    private func realResolver() throws -> CountryResolver {
        try XCTUnwrap(Self.resolver, "Data/ must hold countries.json and country-index.bin")
    }

    func testADriveFromLyonThroughGenevaToTurinHasThreeSegmentsAndTwoCrossings() throws {
        let input = """
            trace_id,time,lat,lon
            alps,2024-05-01T08:00:00Z,45.7640,4.8357
            alps,2024-05-01T09:00:00Z,46.0000,5.6000
            alps,2024-05-01T10:00:00Z,46.2044,6.1432
            alps,2024-05-01T11:00:00Z,46.5197,6.6323
            alps,2024-05-01T12:00:00Z,46.1000,7.0700
            alps,2024-05-01T13:00:00Z,45.7370,7.3154
            alps,2024-05-01T14:00:00Z,45.0703,7.6869

            """
        let (text, summary) = try resolveBatch(input, resolver: try realResolver())
        XCTAssertEqual(lines(text).dropFirst().map { $0.split(separator: ",")[4] }, ["FR", "FR", "CH", "CH", "CH", "IT", "IT"])
        let trace = try XCTUnwrap(summary.traces.first)
        XCTAssertEqual(trace.traceID, "alps")
        XCTAssertEqual(trace.segments.map(\.country), ["FR", "CH", "IT"])
        XCTAssertEqual(trace.segments.map(\.fixes), [2, 3, 2])
        XCTAssertEqual(trace.segments.map(\.firstTime), ["2024-05-01T08:00:00Z", "2024-05-01T10:00:00Z", "2024-05-01T13:00:00Z"])
        XCTAssertEqual(trace.segments.map(\.lastTime), ["2024-05-01T09:00:00Z", "2024-05-01T12:00:00Z", "2024-05-01T14:00:00Z"])
        // Lyon to (46.0, 5.6): 64.7 km on the sphere; inside Switzerland, Geneva–Lausanne–Martigny.
        XCTAssertEqual(trace.segments[0].distanceKm, 64.7, accuracy: 0.1)
        XCTAssertEqual(
            trace.segments[1].distanceKm,
            GreatCircle.distance(from: .init(latitude: 46.2044, longitude: 6.1432), to: .init(latitude: 46.5197, longitude: 6.6323))
                + GreatCircle.distance(from: .init(latitude: 46.5197, longitude: 6.6323), to: .init(latitude: 46.1, longitude: 7.07)),
            accuracy: 1e-9)
        XCTAssertEqual(trace.crossings.map(\.from), ["FR", "CH"])
        XCTAssertEqual(trace.crossings.map(\.to), ["CH", "IT"])
        XCTAssertEqual(trace.crossings.map(\.time), ["2024-05-01T09:30:00Z", "2024-05-01T12:30:00Z"])
        XCTAssertEqual(trace.crossings[0].latitude, 46.1025, accuracy: 0.001)
        XCTAssertEqual(trace.crossings[0].longitude, 5.8711, accuracy: 0.001)
        XCTAssertEqual(summary.countries, ["FR": 2, "CH": 3, "IT": 2])
    }

    func testATraceAcrossTheAntimeridianMeasuresTheShortWay() throws {
        let input = """
            {"trace_id":"chukotka","time":1714550400,"lat":67.0,"lon":178.5}
            {"trace_id":"chukotka","time":1714554000,"lat":67.0,"lon":179.5}
            {"trace_id":"chukotka","time":1714557600,"lat":67.0,"lon":-179.5}
            {"trace_id":"chukotka","time":1714561200,"lat":67.0,"lon":-178.5}
            {"trace_id":"bering","time":1714550400,"lat":60.0,"lon":179.0}
            {"trace_id":"bering","time":1714557600,"lat":67.0,"lon":-179.5}

            """
        let (text, summary) = try resolveBatch(input, name: "ships.ndjson", resolver: try realResolver())
        XCTAssertEqual(lines(text).count, 6)
        let chukotka = try XCTUnwrap(summary.traces.first { $0.traceID == "chukotka" })
        XCTAssertEqual(chukotka.segments.map(\.country), ["RU"])
        XCTAssertEqual(chukotka.crossings, [])
        // Three steps of 1° of longitude at 67° N: 3 × 111.2 km × cos 67° ≈ 130.3 km, not 40,000.
        XCTAssertEqual(chukotka.segments[0].distanceKm, 130.3, accuracy: 0.2)
        let bering = try XCTUnwrap(summary.traces.first { $0.traceID == "bering" })
        XCTAssertEqual(bering.segments.map(\.country), [nil, "RU"])
        let crossing = try XCTUnwrap(bering.crossings.first)
        XCTAssertEqual(crossing.time, "2024-05-01T09:00:00Z", "midway between 08:00 and 10:00 UTC in epoch seconds")
        XCTAssertGreaterThan(abs(crossing.longitude), 179.0, "the midpoint lies on the antimeridian, not near Greenwich")
        XCTAssertEqual(crossing.latitude, 63.5, accuracy: 0.2)
    }
}

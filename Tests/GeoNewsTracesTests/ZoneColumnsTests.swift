import Foundation
import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy
import GeoNewsTimeZones
import XCTest

@testable import GeoNewsTraces

/// A resolver that answers like ``BoxResolver`` and adds a time zone and a border distance
/// from a small table, so that the real writers can be checked before the resolver fills these
/// in from the country-area index. End-to-end rows with zones and border distances from the
/// real data follow in `TraceJourneyTests` when that index lands.
struct ZonedBoxResolver: CountryResolving {
    let boxes = BoxResolver()
    /// Per ISO code: the zone, and the distance to the border in kilometres.
    static let table: [String: (zone: String, borderKm: Double)] = [
        "AA": ("Asia/Kathmandu", 12.3456),
        "BB": ("Pacific/Chatham", 0.0004),
        "CC": ("Europe/Paris", 250),
    ]
    static let oceanZone = "Etc/GMT+10"

    func resolve(_ p: Coordinate) -> Resolution {
        let r = boxes.resolve(p)
        guard let iso = r.country?.iso2, let row = Self.table[iso] else {
            return Resolution(position: p, country: nil, nearest: r.nearest, suggestion: r.suggestion, timeZone: Self.oceanZone)
        }
        return Resolution(
            position: p, country: r.country, nearest: nil, suggestion: r.suggestion,
            timeZone: row.zone, borderDistanceKm: row.borderKm)
    }
}

/// The `time_zone` and `border_distance_km` columns in every output format, and the trace
/// summary's local times (UTC offsets from Data/zoneinfo.bin, tzdata 2026e).
final class ZoneColumnsTests: XCTestCase {
    static let rules = try? TimeZoneRules.load(from: DataDirectory.locate())

    private func run(
        _ input: String, name: String = "input.csv", borderDistance: Bool = false,
        configure: (inout BatchResolveOptions) -> Void = { _ in }
    ) throws -> (text: String, summary: BatchSummary) {
        let rules = try XCTUnwrap(Self.rules, "Data/ must hold timezones.json and zoneinfo.bin")
        return try resolveBatch(input, name: name, resolver: ZonedBoxResolver()) {
            $0.includesBorderDistance = borderDistance
            $0.zoneRules = rules
            configure(&$0)
        }
    }

    func testCSVRowsCarryTheTimeZoneAlwaysAndTheBorderDistanceOnlyWhenAsked() throws {
        let input = "name,lat,lon\na,5,5\nb,5,15\nsea,50,50\nbad,x,5\n"
        XCTAssertEqual(
            lines(try run(input).text),
            [
                "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error",
                "a,5,5,AA,AA,inside,0.000,Asia/Kathmandu,",
                "b,5,15,BB,BB,inside,0.000,Pacific/Chatham,",
                "sea,50,50,,XX,nearest-marker,1000.000,Etc/GMT+10,",
                #"bad,x,5,,,,,,"line 5: latitude ""x"" is not a number""#,
            ])
        XCTAssertEqual(
            lines(try run(input, borderDistance: true).text),
            [
                "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,border_distance_km,error",
                "a,5,5,AA,AA,inside,0.000,Asia/Kathmandu,12.346,",
                "b,5,15,BB,BB,inside,0.000,Pacific/Chatham,0.000,",
                "sea,50,50,,XX,nearest-marker,1000.000,Etc/GMT+10,,",
                #"bad,x,5,,,,,,,"line 5: latitude ""x"" is not a number""#,
            ])
    }

    func testNDJSONRowsCarryTheNewKeysWithNullsAtSeaAndOnErrors() throws {
        let input = "{\"lat\":-5,\"lon\":5}\n{\"lat\":50,\"lon\":50}\n{\"lat\":91,\"lon\":0}\n"
        XCTAssertEqual(
            lines(try run(input, name: "a.ndjson").text),
            [
                #"{"lat":-5,"lon":5,"country_iso2":"CC","suggested_iso2":"CC","suggestion_reason":"inside","distance_km":0.000,"time_zone":"Europe/Paris","error":null}"#,
                #"{"lat":50,"lon":50,"country_iso2":null,"suggested_iso2":"XX","suggestion_reason":"nearest-marker","distance_km":1000.000,"time_zone":"Etc/GMT+10","error":null}"#,
                #"{"lat":91,"lon":0,"country_iso2":null,"suggested_iso2":null,"suggestion_reason":null,"distance_km":null,"time_zone":null,"error":"line 3: latitude 91.0 is outside -90…90"}"#,
            ])
        XCTAssertEqual(
            lines(try run(input, name: "a.ndjson", borderDistance: true).text),
            [
                #"{"lat":-5,"lon":5,"country_iso2":"CC","suggested_iso2":"CC","suggestion_reason":"inside","distance_km":0.000,"time_zone":"Europe/Paris","border_distance_km":250.000,"error":null}"#,
                #"{"lat":50,"lon":50,"country_iso2":null,"suggested_iso2":"XX","suggestion_reason":"nearest-marker","distance_km":1000.000,"time_zone":"Etc/GMT+10","border_distance_km":null,"error":null}"#,
                #"{"lat":91,"lon":0,"country_iso2":null,"suggested_iso2":null,"suggestion_reason":null,"distance_km":null,"time_zone":null,"border_distance_km":null,"error":"line 3: latitude 91.0 is outside -90…90"}"#,
            ])
    }

    func testGeoJSONPointsGainScalarsAndLineStringsGainArrays() throws {
        let input = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","geometry":{"type":"Point","coordinates":[5,5]},"properties":{"name":"p"}},
              {"type":"Feature","geometry":{"type":"LineString","coordinates":[[5,5],[50,50],[15,5]]},"properties":{}}
            ]}
            """
        for borderDistance in [false, true] {
            let (text, _) = try run(input, name: "a.geojson", borderDistance: borderDistance)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let features = try XCTUnwrap(json["features"] as? [[String: Any]])
            let point = try XCTUnwrap(features[0]["properties"] as? [String: Any])
            XCTAssertEqual(point["time_zone"] as? String, "Asia/Kathmandu")
            let line = try XCTUnwrap(features[1]["properties"] as? [String: Any])
            XCTAssertEqual((line["vertex_time_zone"] as? [String]), ["Asia/Kathmandu", "Etc/GMT+10", "Pacific/Chatham"])
            if borderDistance {
                XCTAssertEqual(point["border_distance_km"] as? Double, 12.346)
                let distances = try XCTUnwrap(line["vertex_border_distance_km"] as? [Any])
                XCTAssertEqual(distances.count, 3)
                XCTAssertEqual(distances[0] as? Double, 12.346)
                XCTAssertTrue(distances[1] is NSNull, "at sea")
                XCTAssertEqual(distances[2] as? Double, 0)
            } else {
                XCTAssertNil(point["border_distance_km"])
                XCTAssertNil(line["vertex_border_distance_km"])
            }
        }
    }

    func testGeoJSONToCSVAndGPXToCSVGainTheSameColumns() throws {
        let geojson =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[15,5]},"properties":{}}]}"#
        let rows = lines(try run(geojson, name: "a.geojson", borderDistance: true) { $0.outputFormat = .csv }.text)
        XCTAssertEqual(
            rows[0],
            "feature,vertex,lat,lon,time,trace_id,properties,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,border_distance_km,error"
        )
        XCTAssertTrue(rows[1].hasSuffix(",BB,BB,inside,0.000,Pacific/Chatham,0.000,"), rows[1])
        let gpx = #"<gpx><trk><name>t</name><trkseg><trkpt lat="-5" lon="5"><time>2024-05-01T08:00:00Z</time></trkpt></trkseg></trk></gpx>"#
        let gpxRows = lines(try run(gpx, name: "a.gpx").text)
        XCTAssertEqual(
            gpxRows[0],
            "kind,trace_id,segment,lat,lon,ele,time,name,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error")
        XCTAssertEqual(gpxRows[1], "trkpt,t,1,-5,5,,2024-05-01T08:00:00Z,,CC,CC,inside,0.000,Europe/Paris,")
    }

    /// Kathmandu is UTC+05:45 all year; the Chatham Islands are +12:45 in their winter (May)
    /// and +13:45 in their summer (January); the open ocean's Etc/GMT+10 is -10:00.
    func testTheSummaryGivesSegmentAndCrossingTimesInTheLocalZone() throws {
        let input = """
            trace_id,time,lat,lon
            may,2024-05-01T08:00:00Z,5,5
            may,2024-05-01T09:00:00Z,5,5
            may,2024-05-01T10:00:00Z,5,15
            may,2024-05-01T11:00:00Z,50,50
            jan,1705305600,5,15

            """
        let (_, summary) = try run(input)
        let may = try XCTUnwrap(summary.traces.first { $0.traceID == "may" })
        XCTAssertEqual(may.segments.map(\.firstTimeZone), ["Asia/Kathmandu", "Pacific/Chatham", "Etc/GMT+10"])
        XCTAssertEqual(
            may.segments.map(\.firstLocalTime), ["2024-05-01T13:45:00+05:45", "2024-05-01T22:45:00+12:45", "2024-05-01T01:00:00-10:00"])
        XCTAssertEqual(
            may.segments.map(\.lastLocalTime), ["2024-05-01T14:45:00+05:45", "2024-05-01T22:45:00+12:45", "2024-05-01T01:00:00-10:00"])
        XCTAssertEqual(may.crossings.map(\.time), ["2024-05-01T09:30:00Z", "2024-05-01T10:30:00Z"])
        XCTAssertEqual(may.crossings.map(\.timeZone), ["Pacific/Chatham", "Etc/GMT+10"])
        XCTAssertEqual(may.crossings.map(\.localTime), ["2024-05-01T22:15:00+12:45", "2024-05-01T00:30:00-10:00"])
        let jan = try XCTUnwrap(summary.traces.first { $0.traceID == "jan" })
        XCTAssertEqual(jan.segments.first?.firstLocalTime, "2024-01-15T21:45:00+13:45")

        let text = summary.text()
        XCTAssertTrue(
            text.contains(
                "  AA: 2024-05-01T08:00:00Z … 2024-05-01T09:00:00Z (local 2024-05-01T13:45:00+05:45 … 2024-05-01T14:45:00+05:45 Asia/Kathmandu), 2 fixes,"
            ), text)
        XCTAssertTrue(
            text.contains("  crossing AA → BB at 2024-05-01T09:30:00Z (local 2024-05-01T22:15:00+12:45 Pacific/Chatham) near "), text)
        XCTAssertTrue(text.contains("  crossing BB → sea at 2024-05-01T10:30:00Z (local 2024-05-01T00:30:00-10:00 Etc/GMT+10) near "), text)
        XCTAssertTrue(
            text.contains(
                "  BB: 2024-01-15T08:00:00Z … 2024-01-15T08:00:00Z (local 2024-01-15T21:45:00+13:45 … 2024-01-15T21:45:00+13:45 Pacific/Chatham), 1 fixes,"
            ),
            "epoch seconds are shown in UTC: \(text)")

        let json = summary.json()
        XCTAssertTrue(json.contains(#""first_local_time" : "2024-05-01T13:45:00+05:45""#), json)
        XCTAssertTrue(json.contains(#""local_time" : "2024-05-01T22:15:00+12:45""#), json)
        XCTAssertTrue(json.contains(#""time_zone" : "Pacific\/Chatham""#) || json.contains(#""time_zone" : "Pacific/Chatham""#), json)
    }

    func testASegmentAcrossTwoZonesNamesEach() throws {
        XCTAssertEqual(
            BatchSummary.local("2024-05-01T13:45:00+05:45", "Asia/Kathmandu", "2024-05-01T09:00:00+01:00", "Europe/London"),
            "2024-05-01T13:45:00+05:45 Asia/Kathmandu … 2024-05-01T09:00:00+01:00 Europe/London")
        XCTAssertNil(BatchSummary.local(nil, "Asia/Kathmandu", "2024-05-01T09:00:00+01:00", "Europe/London"))
    }

    func testWithoutZonesTheSummaryHasNoLocalTimes() throws {
        let (_, summary) = try resolveBatch("trace_id,time,lat,lon\nt,2024-05-01T08:00:00Z,5,5\n")
        XCTAssertNil(summary.traces.first?.segments.first?.firstLocalTime)
        XCTAssertFalse(summary.text().contains("local"))
    }
}

import XCTest

@testable import GeoNewsTraces

final class GPXInputTests: XCTestCase {
    let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <metadata><name>Trip</name></metadata>
          <wpt lat="5.5" lon="15.5"><name>Camp &amp; fire</name></wpt>
          <trk>
            <name>Morning</name>
            <!-- a comment with <trkpt lat="0" lon="0"> inside -->
            <trkseg>
              <trkpt lat="5" lon="5"><ele>120.5</ele><time>2024-05-01T08:00:00Z</time></trkpt>
              <trkpt lat="5" lon="15"><ele>121</ele><time>2024-05-01T08:10:00Z</time></trkpt>
            </trkseg>
            <trkseg>
              <trkpt lat="-5" lon="15"><time>2024-05-01T09:00:00Z</time></trkpt>
              <trkpt lat="x" lon="15"/>
            </trkseg>
          </trk>
          <trk>
            <trkseg><trkpt lat='5' lon='5'/></trkseg>
          </trk>
          <rte><name>Detour</name><rtept lat="5" lon="15"></rtept></rte>
        </gpx>
        """

    func testTracksSegmentsRoutesAndWaypointsAreAllRead() throws {
        let (text, summary) = try resolveBatch(gpx, name: "trip.gpx")
        let rows = lines(text)
        XCTAssertEqual(
            rows,
            [
                "kind,trace_id,segment,lat,lon,ele,time,name,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error",
                "wpt,waypoints,0,5.5,15.5,,,Camp & fire,BB,BB,inside,0.000,,",
                "trkpt,Morning,1,5,5,120.5,2024-05-01T08:00:00Z,,AA,AA,inside,0.000,,",
                "trkpt,Morning,1,5,15,121,2024-05-01T08:10:00Z,,BB,BB,inside,0.000,,",
                "trkpt,Morning,2,-5,15,,2024-05-01T09:00:00Z,,CC,CC,inside,0.000,,",
                "trkpt,Morning,2,x,15,,,,,,,,,\"line 14: latitude \"\"x\"\" is not a number\"",
                "trkpt,track 2,1,5,5,,,,AA,AA,inside,0.000,,",
                "rtept,Detour,0,5,15,,,,BB,BB,inside,0.000,,",
            ])
        XCTAssertEqual(summary.recordsRead, 7)
        let morning = try XCTUnwrap(summary.traces.first { $0.traceID == "Morning" })
        XCTAssertEqual(morning.segments.map(\.country), ["AA", "BB", "CC"])
        XCTAssertEqual(morning.segments[1].firstTime, "2024-05-01T08:10:00Z")
        XCTAssertEqual(morning.crossings.map(\.time), ["2024-05-01T08:05:00Z", "2024-05-01T08:35:00Z"])
    }

    /// Found by the gpx fuzz target: a closing tag with no name, `</>`, crashed the reader.
    func testAnEmptyClosingTagIsSkippedNotACrash() throws {
        let gpx = """
            <gpx><trk><name>t</>x</name><trkseg>
            <trkpt lat="46.2" lon="6.1"><time>2024-05-01T08:00:00Z</time></trkpt></ >
            <trkpt lat="5" lon="5"/></trkseg></trk></gpx>
            """
        let (text, summary) = try resolveBatch(gpx, name: "odd.gpx")
        XCTAssertEqual(summary.recordsRead, 2)
        XCTAssertEqual(lines(text).count, 3, text)
    }

    func testATruncatedFileEndsWithAnErrorRowForTheOpenPoint() throws {
        let (text, summary) = try resolveBatch("<gpx><trk><trkseg>\n<trkpt lat=\"5\" lon=\"5\"><time>2024", name: "cut.gpx") {
            $0.outputFormat = .ndjson
        }
        XCTAssertEqual(summary.recordsRead, 1)
        XCTAssertEqual(summary.recordsInError, 1)
        XCTAssertTrue(text.contains("line 2: truncated GPX: the trkpt opened on this line is never closed"), text)
    }
}

import XCTest

@testable import GeoNewsTraces

final class CSVInputTests: XCTestCase {
    func testEveryRowGainsTheResolvedColumnsUnderTheHeader() throws {
        let (text, summary) = try resolveBatch("name,lat,lon\nа,5,5\nb,5,15\nc,-5,5\nd,50,50\n")
        XCTAssertEqual(
            lines(text),
            [
                "name,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error",
                "а,5,5,AA,AA,inside,0.000,,",
                "b,5,15,BB,BB,inside,0.000,,",
                "c,-5,5,CC,CC,inside,0.000,,",
                "d,50,50,,XX,nearest-marker,1000.000,,",
            ])
        XCTAssertEqual(summary.recordsRead, 4)
        XCTAssertEqual(summary.countries, ["AA": 1, "BB": 1, "CC": 1])
        XCTAssertEqual(summary.atSea, 1)
    }

    func testQuotedCommasQuotesAndLineBreaksStayInOneField() throws {
        let input = "label,latitude,Longitude\n\"Paris, \"\"the\"\" city\",5,5\n\"two\nlines\",5,15\n"
        let (text, summary) = try resolveBatch(input)
        XCTAssertEqual(summary.recordsRead, 2)
        XCTAssertEqual(summary.recordsInError, 0)
        XCTAssertEqual(
            text,
            "label,latitude,Longitude,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error\n"
                + "\"Paris, \"\"the\"\" city\",5,5,AA,AA,inside,0.000,,\n\"two\nlines\",5,15,BB,BB,inside,0.000,,\n")
    }

    func testCRLFAndByteOrderMarkAreUnderstood() throws {
        let (text, summary) = try resolveBatch("\u{FEFF}LAT,LNG\r\n5,5\r\n5,15\r\n")
        XCTAssertEqual(summary.recordsResolved, 2)
        XCTAssertEqual(
            lines(text),
            [
                "LAT,LNG,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error",
                "5,5,AA,AA,inside,0.000,,", "5,15,BB,BB,inside,0.000,,",
            ])
    }

    func testEmptyInputWritesNothing() throws {
        let (text, summary) = try resolveBatch("")
        XCTAssertEqual(text, "")
        XCTAssertEqual(summary.recordsRead, 0)
    }

    func testHeaderOnlyWritesTheHeaderAndNoRows() throws {
        let (text, summary) = try resolveBatch("lat,lon\n")
        XCTAssertEqual(text, "lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error\n")
        XCTAssertEqual(summary.recordsRead, 0)
    }

    func testHeaderlessInputTakesColumnsByPositionAndWritesNoHeader() throws {
        let (text, _) = try resolveBatch("x,5,15\ny,5,5\n") { o in
            o.hasHeader = false
            o.latitudeColumn = .position(2)
            o.longitudeColumn = .position(3)
        }
        XCTAssertEqual(lines(text), ["x,5,15,BB,BB,inside,0.000,,", "y,5,5,AA,AA,inside,0.000,,"])
    }

    func testColumnsChosenByNameIgnoringCase() throws {
        let (text, _) = try resolveBatch("Y,X\n5,15\n") { o in
            o.latitudeColumn = .name("y")
            o.longitudeColumn = .name("x")
        }
        XCTAssertEqual(lines(text).last, "5,15,BB,BB,inside,0.000,,")
    }

    func testHeaderWithoutCoordinateColumnsIsAUsageError() {
        XCTAssertThrowsError(try resolveBatch("a,b\n1,2\n")) { error in
            guard case .usage = error as? BatchResolveError else { return XCTFail("not a usage error: \(error)") }
            XCTAssertTrue("\(error)".contains("no latitude column"), "\(error)")
        }
    }

    func testEveryKindOfBadRowBecomesAnErrorRowAndNoRowIsLost() throws {
        let input =
            [
                "id,lat,lon",
                "1,5,5",
                "2,abc,5",  // not a number
                "3,91.5,5",  // latitude out of range
                "4,5,-180.5",  // longitude out of range
                "5,,5",  // empty
                "6,5",  // truncated line: no longitude
                "7,nan,5",  // words strtod would take
                "8,5,5,extra",  // more fields than the header
                "9,\"5\"x,5",  // text after a closing quote
                "10,5e-1,5",  // exponent: valid
                "11,5,15",
                "12,\"5,5",  // quote never closed
                "13,5,15",
            ].joined(separator: "\n") + "\n"
        let (text, summary) = try resolveBatch(input)
        let rows = lines(text)
        XCTAssertEqual(rows.count - 1, 13, "rows out = rows in")
        XCTAssertEqual(summary.recordsRead, 13)
        XCTAssertEqual(summary.recordsInError, 9)
        XCTAssertEqual(summary.recordsResolved, 4)
        let errors = rows.dropFirst().map { $0.components(separatedBy: ",").last! }
        XCTAssertEqual(errors[0], "")
        XCTAssertEqual(errors[1], "\"line 3: latitude \"\"abc\"\" is not a number\"")
        XCTAssertTrue(rows[3].contains("line 4: latitude 91.5 is outside -90…90"), rows[3])
        XCTAssertTrue(rows[4].contains("line 5: longitude -180.5 is outside -180…180"), rows[4])
        XCTAssertTrue(rows[5].contains("line 6: latitude is empty"), rows[5])
        XCTAssertTrue(rows[6].contains("line 7: no longitude: it is column 3 and the record has 2 fields"), rows[6])
        XCTAssertTrue(rows[7].contains("line 8: latitude \"\"nan\"\" is not a number"), rows[7])
        XCTAssertTrue(rows[8].contains("line 9: the record has 4 fields, the header has 3"), rows[8])
        XCTAssertTrue(rows[9].contains("line 10: broken quoting: text after the closing quote of field 2"), rows[9])
        XCTAssertEqual(rows[10], "10,5e-1,5,AA,AA,inside,0.000,,")
        XCTAssertEqual(rows[11], "11,5,15,BB,BB,inside,0.000,,")
        XCTAssertTrue(rows[12].contains("line 13: broken quoting"), rows[12])
        XCTAssertEqual(rows[13], "13,5,15,BB,BB,inside,0.000,,", "the line after an unclosed quote is read again")
    }

    /// A chunk without quotes is read line by line without the cursor; its rows must be the
    /// ones the cursor writes, which the same records followed by a quoted one still go through.
    func testRecordsWithoutQuotesGiveTheRowsOfTheGeneralReader() throws {
        let records = [
            "id,lat,lon,note",
            "1,5,5,a",
            "",
            "2,abc,5,b",  // not a number
            "3,5",  // no longitude
            "4,5,15,c,extra",  // wider than the header
            "5,5,15",  // narrower: padded
            "6, 5 ,\t15\t,d",  // spaces and tabs around the numbers
            "7,91,5,e",  // out of range
            "8,-5,5,f\r",  // CRLF
            "\r",  // a blank CRLF line
            "9,5,5,",  // empty last field
        ]
        let plain = records.joined(separator: "\n") + "\n10,-5,25"  // the last line unterminated
        let (text, summary) = try resolveBatch(plain)
        let rows = lines(text)
        XCTAssertEqual(rows.count, 11)
        XCTAssertEqual(summary.recordsRead, 10)
        XCTAssertEqual(summary.recordsInError, 4)
        XCTAssertEqual(rows[1], "1,5,5,a,AA,AA,inside,0.000,,")
        XCTAssertEqual(rows[2], "2,abc,5,b,,,,,,\"line 4: latitude \"\"abc\"\" is not a number\"")
        XCTAssertEqual(rows[3], "3,5,,,,,,,,line 5: no longitude: it is column 3 and the record has 2 fields")
        XCTAssertEqual(rows[4], ",,,,,,,,,\"line 6: the record has 5 fields, the header has 4\"")
        XCTAssertEqual(rows[5], "5,5,15,,BB,BB,inside,0.000,,")
        XCTAssertEqual(rows[6], "6, 5 ,\t15\t,d,BB,BB,inside,0.000,,")
        XCTAssertEqual(rows[8], "8,-5,5,f,CC,CC,inside,0.000,,")
        XCTAssertEqual(rows[9], "9,5,5,,AA,AA,inside,0.000,,")
        XCTAssertEqual(rows[7], "7,91,5,e,,,,,,line 9: latitude 91.0 is outside -90…90")
        XCTAssertEqual(rows[10], "10,-5,25,,,XX,nearest-marker,1000.000,,")

        let general = try resolveBatch(plain + "\n\"11\",5,5,g\n").text
        XCTAssertEqual(lines(general).dropLast(), rows[...])
    }

    func testOrderIsKeptAcrossManySmallChunksAndWorkers() throws {
        var input = "seq,lat,lon\n"
        for i in 0..<20_000 { input += "\(i),\(Double(i % 20) - 5 + 0.5),\(Double(i % 7) * 3)\n" }
        let (text, summary) = try resolveBatch(input) { o in
            o.workerCount = 4
            o.chunkBytes = 4096
            o.chunksInFlight = 6
        }
        let rows = lines(text).dropFirst()
        XCTAssertEqual(rows.count, 20_000)
        XCTAssertEqual(summary.recordsRead, 20_000)
        for (i, row) in rows.enumerated() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            XCTAssertEqual(fields[0], Substring(String(i)))
            let lat = Double(i % 20) - 5 + 0.5, lon = Double(i % 7) * 3
            let expected = lat >= 0 && lat < 10 ? (lon < 10 ? "AA" : "BB") : lat < 0 && lat >= -10 ? "CC" : ""
            if fields[3] != Substring(expected) { return XCTFail("row \(i): \(row), expected \(expected)") }
        }
    }

    func testCSVCanBeWrittenAsNDJSONAndGeoJSON() throws {
        let nd = try resolveBatch("name,lat,lon\n\"a, b\",5,15\n") { $0.outputFormat = .ndjson }
        XCTAssertEqual(
            nd.text,
            "{\"name\":\"a, b\",\"lat\":\"5\",\"lon\":\"15\",\"country_iso2\":\"BB\",\"suggested_iso2\":\"BB\",\"suggestion_reason\":\"inside\",\"distance_km\":0.000,\"time_zone\":null,\"error\":null}\n"
        )
        let geo = try resolveBatch("lat,lon\n5,15\nx,1\n") { $0.outputFormat = .geojson }
        let json = try JSONSerialization.jsonObject(with: Data(geo.text.utf8)) as? [String: Any]
        let features = json?["features"] as? [[String: Any]]
        XCTAssertEqual(features?.count, 2)
        XCTAssertEqual((features?[0]["properties"] as? [String: Any])?["country_iso2"] as? String, "BB")
        XCTAssertTrue(features?[1]["geometry"] is NSNull)
    }
}

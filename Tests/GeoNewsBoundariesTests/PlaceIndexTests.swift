import Foundation
import GeoNewsBenchmarking
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsBoundaries

/// The nearest place against a brute-force great-circle search over the same places, read from
/// `Data/places.tsv.gz` by the system's gzip and Foundation's number parsing (not the index's
/// own reader), and the index's refusals.
final class PlaceIndexTests: XCTestCase {
    struct Row {
        let id: UInt32
        let name: String
        let coordinate: Coordinate
        let country: String
        let admin1: String
        let population: UInt32
    }

    /// Every place of the committed source, as gzip and Foundation read it.
    static let rows: [Row] = {
        let text = try! gunzip(TestData.directory.file("places.tsv.gz"))
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(
                id: UInt32(f[0])!, name: f[1], coordinate: Coordinate(latitude: Double(f[2])!, longitude: Double(f[3])!),
                country: f[4], admin1: f[5], population: UInt32(f[6])!)
        }
    }()

    static func gunzip(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }

    static func gzip(_ text: String, to path: String) throws {
        let plain = path + ".txt"
        try text.write(toFile: plain, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", "-9", "-c", plain]
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        try out.close()
        try FileManager.default.removeItem(atPath: plain)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "places-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The committed source's index, built once for the suite (in memory, as a folder that cannot
    /// be written gets it).
    static let built = Result { try PlaceIndex.load(source: TestData.directory.file("places.tsv.gz"), index: "/nonexistent/places.bin") }

    private func index() throws -> PlaceIndex {
        let index = try Self.built.get()
        XCTAssertEqual(index.path, TestData.directory.file("places.tsv.gz"), "built in memory")
        return index
    }

    func testEveryPlaceOfTheSourceIsInTheIndexWithItsFields() throws {
        let index = try index()
        let rows = Self.rows
        XCTAssertEqual(index.count, rows.count)
        XCTAssertGreaterThan(rows.count, 200_000, "cities500 holds about 235,000 places")
        var byID: [UInt32: Place] = [:]
        var twice: [UInt32] = []
        for k in 0..<index.count {
            let p = index.place(at: k)
            if byID.updateValue(p, forKey: p.geonameID) != nil { twice.append(p.geonameID) }
        }
        XCTAssertEqual(twice, [], "geonameids listed twice")
        // Compared without an assertion per field (1.4 million of them take XCTest seconds).
        var differ: [String] = []
        for r in rows {
            guard let p = byID[r.id] else {
                differ.append("\(r.id) missing")
                continue
            }
            if p.name != r.name || p.countryISO2 != r.country || p.admin1 != r.admin1 || p.population != r.population
                || abs(p.coordinate.latitude - r.coordinate.latitude) > 5e-6 || abs(p.coordinate.longitude - r.coordinate.longitude) > 5e-6
            {
                differ.append("\(r.id): \(p) against \(r)")
            }
        }
        XCTAssertEqual(differ.prefix(20), [], "\(differ.count) places differ")
        XCTAssertEqual(byID.count, rows.count)
        XCTAssertEqual(index.placeCount(inCountry: "FR"), rows.filter { $0.country == "FR" }.count)
        XCTAssertEqual(index.placeCount(inCountry: "BV"), 0, "Bouvet Island has no populated place")
    }

    /// Positions near places of a country (up to about 60 km off, so across its borders and
    /// coasts too), and uniform ones on the whole sphere: the index's nearest in the country is
    /// the brute-force nearest.
    func testTheNearestPlaceInACountryIsTheBruteForceNearest() throws {
        let index = try index()
        var byCountry: [String: [Row]] = [:]
        for r in Self.rows { byCountry[r.country, default: []].append(r) }
        let countries = byCountry.keys.sorted()
        var rng = SplitMix64(seed: 7)
        var checked = 0
        for n in 0..<3_000 {
            let country = countries[Int(rng.next() % UInt64(countries.count))]
            let places = byCountry[country]!
            let position: Coordinate
            if n % 3 == 0 {
                position = Coordinate(latitude: asin(rng.uniform(-1, 1)) * 180 / .pi, longitude: rng.uniform(-180, 180))
            } else {
                let c = places[Int(rng.next() % UInt64(places.count))].coordinate
                position = Coordinate(
                    latitude: max(-90, min(90, c.latitude + rng.uniform(-0.5, 0.5))),
                    longitude: GreatCircle.normalizedLongitude(c.longitude + rng.uniform(-0.5, 0.5)))
            }
            let brute = places.map { (GreatCircle.distance(from: position, to: $0.coordinate), $0.id) }.min { $0 < $1 }!
            guard let found = index.nearest(to: position, inCountry: country) else { return XCTFail("none in \(country)") }
            XCTAssertEqual(found.place.countryISO2, country)
            // The same distance; another place only in a tie (the same distance, to 1e-9 km).
            XCTAssertEqual(found.distanceKm, brute.0, accuracy: 1e-9, "\(position) in \(country): \(found.place.geonameID), not \(brute.1)")
            checked += 1
        }
        XCTAssertEqual(checked, 3_000)
        XCTAssertNil(index.nearest(to: Coordinate(latitude: -54.42, longitude: 3.36), inCountry: "BV"))
        XCTAssertNil(index.nearest(to: Coordinate(latitude: 0, longitude: 0), inCountry: "fr"), "codes are capitals")
    }

    /// At sea with no country: the nearest place of any country within 50 km, or none; against
    /// brute force over every place (those within 0.5° of latitude, a bound 50 km cannot pass).
    func testTheNearestPlaceWithinFiftyKilometresIsTheBruteForceNearest() throws {
        let index = try index()
        let rows = Self.rows.sorted { $0.coordinate.latitude < $1.coordinate.latitude }
        let latitudes = rows.map(\.coordinate.latitude)
        var rng = SplitMix64(seed: 11)
        var found = 0, none = 0
        for n in 0..<1_500 {
            let position: Coordinate
            if n % 2 == 0 {
                position = Coordinate(latitude: asin(rng.uniform(-1, 1)) * 180 / .pi, longitude: rng.uniform(-180, 180))
            } else {
                let c = rows[Int(rng.next() % UInt64(rows.count))].coordinate
                position = Coordinate(
                    latitude: max(-90, min(90, c.latitude + rng.uniform(-0.6, 0.6))),
                    longitude: GreatCircle.normalizedLongitude(c.longitude + rng.uniform(-0.6, 0.6)))
            }
            var lo = 0, hi = latitudes.count
            while lo < hi {
                let m = (lo + hi) / 2
                if latitudes[m] < position.latitude - 0.5 { lo = m + 1 } else { hi = m }
            }
            var brute: (Double, UInt32)?
            var k = lo
            while k < rows.count && rows[k].coordinate.latitude <= position.latitude + 0.5 {
                let d = GreatCircle.distance(from: position, to: rows[k].coordinate)
                if d <= 50, brute.map({ (d, rows[k].id) < $0 }) ?? true { brute = (d, rows[k].id) }
                k += 1
            }
            let answer = index.nearest(to: position, withinKm: 50)
            XCTAssertEqual(answer?.distanceKm == nil, brute == nil, "\(position)")
            if let answer, let brute {
                XCTAssertEqual(answer.distanceKm, brute.0, accuracy: 1e-9, "\(position)")
                found += 1
            } else {
                none += 1
            }
        }
        XCTAssertGreaterThan(found, 500)
        XCTAssertGreaterThan(none, 300, "most of the sphere is far from any town")
    }

    func testTheIndexIsWrittenOnceAndRebuiltWhenTheSourceChanges() throws {
        let source = folder + "/places.tsv.gz"
        let header = "geonameid\tname\tlat\tlon\tcountry\tadmin1\tpopulation\n"
        try Self.gzip(
            header + "2988507\tParis\t48.85341\t2.3488\tFR\t11\t2138551\n1850147\t東京都\t35.6895\t139.69171\tJP\t40\t8336599\n", to: source)
        let first = try PlaceIndex.load(source: source, index: folder + "/places.bin")
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(first.path, folder + "/places.bin")
        XCTAssertEqual(first.nearest(to: Coordinate(latitude: 35.7, longitude: 139.7), inCountry: "JP")?.place.name, "東京都")
        let paris = try XCTUnwrap(first.nearest(to: Coordinate(latitude: 45.75, longitude: 4.85), inCountry: "FR"))
        XCTAssertEqual(paris.place.geonamesAdmin1, "FR.11")
        XCTAssertEqual(
            paris.distanceKm, GreatCircle.distance(from: Coordinate(latitude: 45.75, longitude: 4.85), to: paris.place.coordinate))
        let written = try FileManager.default.attributesOfItem(atPath: folder + "/places.bin")[.modificationDate] as! Date
        Thread.sleep(forTimeInterval: 0.02)
        _ = try PlaceIndex.load(source: source, index: folder + "/places.bin")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: folder + "/places.bin")[.modificationDate] as! Date, written)
        try Self.gzip(header + "2996944\tLyon\t45.74846\t4.84671\tFR\t84\t522969\n", to: source)
        let second = try PlaceIndex.load(source: source, index: folder + "/places.bin")
        XCTAssertEqual(second.count, 1)
        XCTAssertEqual(second.nearest(to: Coordinate(latitude: 45.75, longitude: 4.85), inCountry: "FR")?.place.name, "Lyon")
        // A folder that cannot be written keeps the index in memory.
        let memory = try PlaceIndex.load(source: source, index: folder + "/missing/places.bin")
        XCTAssertEqual(memory.path, source)
        XCTAssertEqual(memory.count, 1)
    }

    func testABadLineIsNamedByNumberAndField() throws {
        let source = folder + "/places.tsv.gz"
        let header = "geonameid\tname\tlat\tlon\tcountry\tadmin1\tpopulation\n"
        let good = "2988507\tParis\t48.85341\t2.3488\tFR\t11\t2138551\n"
        let cases: [(String, String)] = [
            ("1\tNorth\t90.5\t0\tXX\t\t0\n", "line 3: latitude \"90.5\""),
            ("1\tFar\t0\t1e5\tXX\t\t0\n", "line 3: longitude \"1e5\""),
            ("1\tLong\t0.123456\t0\tXX\t\t0\n", "line 3: latitude \"0.123456\""),
            ("1\tHuge\t0\t9999999999999999\tXX\t\t0\n", "line 3: longitude \"9999999999999999\""),
            ("1\tSmall\t0\t0\tfr\t\t0\n", "line 3: country \"fr\""),
            ("1\tMany\t0\t0\tFR\t\t99999999999\n", "line 3: population \"99999999999\""),
            ("0\tZero\t0\t0\tFR\t\t1\n", "line 3: geonameid \"0\""),
            ("1\tShort\t0\t0\n", "line 3: 4 fields, not 7"),
        ]
        for (line, message) in cases {
            try Self.gzip(header + good + line, to: source)
            XCTAssertThrowsError(try PlaceIndex.load(source: source, index: folder + "/places.bin")) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
                XCTAssertTrue("\(error)".contains(source), "\(error)")
                XCTAssertTrue("\(error)".contains("Scripts/build_regions.py"), "the remedy: \(error)")
            }
        }
        try "not gzip at all, but long enough".write(toFile: source, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PlaceIndex.load(source: source, index: folder + "/places.bin")) { error in
            XCTAssertTrue("\(error)".contains("not a gzip stream"), "\(error)")
        }
        XCTAssertThrowsError(try PlaceIndex.load(source: folder + "/absent.tsv.gz", index: folder + "/places.bin")) { error in
            XCTAssertTrue("\(error)".contains("absent.tsv.gz"), "\(error)")
        }
    }

    /// A damaged places.bin is refused where it is read, and load() builds a good one over it.
    func testADamagedIndexIsRefusedAndRebuilt() throws {
        let source = folder + "/places.tsv.gz"
        try Self.gzip(
            "geonameid\tname\tlat\tlon\tcountry\tadmin1\tpopulation\n2988507\tParis\t48.85341\t2.3488\tFR\t11\t2138551\n",
            to: source)
        let good = try PlaceIndexBuild.build(source: source)
        var rng = SplitMix64(seed: 3)
        for n in 0..<300 {
            var bad = good
            if n % 3 == 0 {
                bad = Array(bad.prefix(Int(rng.next() % UInt64(bad.count))))
            } else {
                for _ in 0...(n % 4) { bad[Int(rng.next() % UInt64(bad.count))] ^= UInt8(1 + rng.next() % 255) }
            }
            if let index = try? PlaceIndex(copying: bad, path: "damaged") {
                // A flip the checks cannot see (a coordinate, a name's byte) still answers in bounds.
                _ = index.nearest(to: Coordinate(latitude: 48, longitude: 2), inCountry: "FR")
                _ = index.nearest(to: Coordinate(latitude: 48, longitude: 2), withinKm: 100)
                for k in 0..<index.count { _ = index.place(at: k) }
            }
        }
        _ = FileManager.default.createFile(atPath: folder + "/places.bin", contents: Data(good.prefix(100)))
        let rebuilt = try PlaceIndex.load(source: source, index: folder + "/places.bin")
        XCTAssertEqual(rebuilt.count, 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/places.bin")), Data(good))
    }
}

/// The town local news is sought under: the most populous place within 15 km, against brute force.
final class PlaceIndexTownTests: XCTestCase {
    func testTheTownIsTheMostPopulousPlaceWithinFifteenKilometresByBruteForce() throws {
        let index = try PlaceIndexTests.built.get()
        var byCountry: [String: [PlaceIndexTests.Row]] = [:]
        for r in PlaceIndexTests.rows { byCountry[r.country, default: []].append(r) }
        let countries = byCountry.keys.sorted()
        var rng = SplitMix64(seed: 11)
        var bigger = 0
        for _ in 0..<2_000 {
            let country = countries[Int(rng.next() % UInt64(countries.count))]
            let places = byCountry[country]!
            let c = places[Int(rng.next() % UInt64(places.count))].coordinate
            let position = Coordinate(
                latitude: max(-90, min(90, c.latitude + rng.uniform(-0.2, 0.2))),
                longitude: GreatCircle.normalizedLongitude(c.longitude + rng.uniform(-0.2, 0.2)))
            let measured = places.map { (km: GreatCircle.distance(from: position, to: $0.coordinate), row: $0) }
            let nearest = measured.min { ($0.km, $0.row.id) < ($1.km, $1.row.id) }!
            let largest = measured.filter { $0.km <= PlaceIndex.townReachKm }.max {
                ($0.row.population, -$0.km) < ($1.row.population, -$1.km)
            }
            let expected = largest.map { $0.row.population > nearest.row.population ? $0 : nearest } ?? nearest
            let town = try XCTUnwrap(index.town(near: position, inCountry: country))
            XCTAssertEqual(
                town.place.population, expected.row.population, "\(position) in \(country): \(town.place.name), not \(expected.row.name)")
            XCTAssertEqual(town.distanceKm, expected.km, accuracy: 1e-9, "\(position) in \(country)")
            if expected.row.id != nearest.row.id { bigger += 1 }
        }
        XCTAssertGreaterThan(bigger, 200, "a larger place than the nearest is often within reach: \(bigger)")
    }

    func testTheFirstDistrictOfLyonHasLyonForItsTown() throws {
        let index = try PlaceIndexTests.built.get()
        let position = Coordinate(latitude: 45.764, longitude: 4.8357)
        XCTAssertEqual(index.nearest(to: position, inCountry: "FR")?.place.name, "Lyon 01")
        let town = try XCTUnwrap(index.town(near: position, inCountry: "FR"))
        XCTAssertEqual(town.place.name, "Lyon")
        XCTAssertEqual(town.place.geonameID, 2_996_944)
        XCTAssertNil(index.town(near: position, inCountry: "BV"), "no place in Bouvet Island")
        XCTAssertEqual(index.town(near: Coordinate(latitude: 34.2658, longitude: 108.9541), inCountry: "CN")?.place.name, "Xi’an")
    }
}

import Foundation
import GeoNewsHeadlines
import XCTest

/// `geonews --lat … --lon …` through the real executable.
final class LocateCommandTests: XCTestCase {
    func testEveryBadInputIsOneLineOnStderrWithExit64AndNothingOnStdout() throws {
        let cases: [([String], String)] = [
            (["--lat", "91.2", "--lon", "0"], "latitude 91.2 is outside -90…90"),
            (["--lat", "-90.5", "--lon", "0"], "latitude -90.5 is outside -90…90"),
            (["--lat", "0", "--lon", "180.01"], "longitude 180.01 is outside -180…180"),
            (["--lat", "0", "--lon", "-181"], "longitude -181 is outside -180…180"),
            (["--lat", "nan", "--lon", "0"], "latitude nan is not a finite number"),
            (["--lat", "0", "--lon", "inf"], "longitude inf is not a finite number"),
            (["--lat", "-Infinity", "--lon", "0"], "latitude -Infinity is not a finite number"),
            (["--lat", "1e400", "--lon", "0"], "latitude 1e400 is not a finite number"),
            (["--lat", "abc", "--lon", "0"], "latitude 'abc' is not a number"),
            (["--lat", "0x10", "--lon", "0"], "latitude '0x10' is not a number"),
            (["--lat", "48.8"], "Missing expected argument '--lon <degrees>'"),
            (["--lon", "2.3"], "Missing expected argument '--lat <degrees>'"),
            (["--lat", "48.8", "--lon", "2.3", "--lang", "xx"], "language 'xx' is not one of"),
            (["--lat", "48.8", "--lon", "2.3", "--limit", "0"], "limit 0 is outside 1…100"),
        ]
        for (args, message) in cases {
            let r = try CommandRunner.geonews(args + ["--no-headlines"])
            XCTAssertEqual(r.status, 64, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }

    /// A line of the locate command's own options is parsed by it alone, anything else from the
    /// root: both give the same answer, and an unknown option still the root's message.
    func testTheLocateShortcutAnswersAsTheRootDoes() throws {
        let shortcut = try CommandRunner.geonews(["--lat=-33.9249", "--lon", "18.4241", "--no-headlines", "--json", "--lang", "de"])
        let root = try CommandRunner.geonews(["locate", "--lat", "-33.9249", "--lon=18.4241", "--no-headlines", "--json", "--lang", "de"])
        XCTAssertEqual(shortcut.status, 0, shortcut.stderr)
        XCTAssertEqual(root.status, 0, root.stderr)
        var a = try CommandRunner.json(shortcut.stdout), b = try CommandRunner.json(root.stdout)
        XCTAssertEqual((a["country"] as? [String: Any])?["name"] as? String, "Südafrika")
        for key in ["localTime"] { a[key] = nil; b[key] = nil }
        XCTAssertEqual(NSDictionary(dictionary: a), NSDictionary(dictionary: b))

        let unknown = try CommandRunner.geonews(["--lat", "1", "--lon", "2", "--bogus"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stderr, "geonews: Unknown option '--bogus'\n")
    }

    func testNegativeCoordinatesAreValuesNotFlags() throws {
        let r = try CommandRunner.geonews(["--lat", "-33.9249", "--lon", "18.4241", "--no-headlines", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try CommandRunner.json(r.stdout)
        XCTAssertEqual((json["country"] as? [String: Any])?["iso2"] as? String, "ZA")
        // The nearest populated place: Cape Town's GeoNames point is 132 m away.
        let place = try XCTUnwrap(json["place"] as? [String: Any], r.stdout)
        XCTAssertEqual(place["name"] as? String, "Cape Town")
        XCTAssertEqual(place["geonameId"] as? Int, 3_369_157)
        XCTAssertEqual(try XCTUnwrap(place["distanceKm"] as? Double), 0.132, accuracy: 0.001)
        XCTAssertGreaterThan(place["population"] as? Int ?? 0, 3_000_000)
        let text = try CommandRunner.geonews(["--lat", "-33.9249", "--lon", "18.4241", "--no-headlines"])
        XCTAssertTrue(text.stdout.contains("\nPlace      Cape Town, 0.1 km away (population "), text.stdout)
    }

    func testJSONCarriesTheDocumentedKeys() throws {
        let r = try CommandRunner.geonews(["--lat", "48.8566", "--lon", "2.3522", "--json", "--no-headlines"])
        XCTAssertEqual(r.status, 0)
        let json = try CommandRunner.json(r.stdout)
        let position = try XCTUnwrap(json["position"] as? [String: Any])
        XCTAssertEqual(position["lat"] as? Double, 48.8566)
        XCTAssertEqual(position["lon"] as? Double, 2.3522)
        let country = try XCTUnwrap(json["country"] as? [String: Any])
        XCTAssertEqual(country["iso2"] as? String, "FR")
        XCTAssertEqual(country["iso3"] as? String, "FRA")
        XCTAssertEqual(country["name"] as? String, "France")
        let suggestion = try XCTUnwrap(json["suggestion"] as? [String: Any])
        XCTAssertEqual(suggestion["iso2"] as? String, "FR")
        XCTAssertEqual(suggestion["reason"] as? String, "inside")
        XCTAssertEqual(suggestion["distanceKm"] as? Double, 0)
        XCTAssertNil(json["headlines"], "--no-headlines leaves them out")
        XCTAssertEqual(json["timeZone"] as? String, "Europe/Paris")
        // Central European Time or its summer time, whichever is in force as the test runs.
        let offset = try XCTUnwrap(json["utcOffsetSeconds"] as? Int)
        XCTAssertTrue([3600, 7200].contains(offset), "\(offset)")
        XCTAssertEqual(json["utcOffset"] as? String, offset == 3600 ? "+01:00" : "+02:00")
        XCTAssertEqual(try XCTUnwrap(json["borderDistanceKm"] as? Double), 172, accuracy: 5)
    }

    func testAtSeaCountryIsNullAndTheSuggestionExplainsItself() throws {
        let r = try CommandRunner.geonews(["--lat", "40", "--lon", "-30", "--json", "--no-headlines"])
        let json = try CommandRunner.json(r.stdout)
        XCTAssertTrue(json["country"] is NSNull)
        let nearest = try XCTUnwrap(json["nearest"] as? [String: Any])
        XCTAssertEqual(nearest["iso2"] as? String, "PT")
        let suggestion = try XCTUnwrap(json["suggestion"] as? [String: Any])
        XCTAssertEqual(suggestion["reason"] as? String, "nearest-marker")
        XCTAssertGreaterThan(suggestion["distanceKm"] as? Double ?? 0, 1000)
        XCTAssertTrue((suggestion["explanation"] as? String ?? "").contains("at sea"))
        // "At sea" is beyond every territorial sea: 10 km off Marseille is France.
        let waters = try CommandRunner.json(
            try CommandRunner.geonews(["--lat", "43.12", "--lon", "5.37", "--json", "--no-headlines"]).stdout)
        XCTAssertEqual((waters["country"] as? [String: Any])?["iso2"] as? String, "FR")
        XCTAssertTrue(waters["nearest"] is NSNull)
        // In French waters the place is French (Sormiou, on the coast 10.7 km north), and
        // mid-Atlantic, with no country and no place within 50 km, there is none.
        XCTAssertEqual((waters["place"] as? [String: Any])?["name"] as? String, "Sormiou")
        XCTAssertEqual(try XCTUnwrap((waters["place"] as? [String: Any])?["distanceKm"] as? Double), 10.717, accuracy: 0.001)
        XCTAssertTrue(json["place"] is NSNull, "written as null: \(r.stdout)")
        // Off Marseille the region is France's nearest, Provence-Alpes-Côte d'Azur, with the
        // department whose polygon is nearest; mid-Atlantic there is none.
        let region = try XCTUnwrap(waters["region"] as? [String: Any])
        XCTAssertEqual(region["iso3166_2"] as? String, "FR-PAC")
        XCTAssertEqual(region["geonamesAdmin1"] as? String, "FR.93")
        XCTAssertEqual(region["inside"] as? Bool, false)
        XCTAssertTrue(json["region"] is NSNull, "written as null: \(r.stdout)")
        let lyon = try CommandRunner.geonews(["--lat", "45.764", "--lon", "4.8357", "--no-headlines", "--lang", "de"])
        XCTAssertTrue(lyon.stdout.contains("\nRegion     Auvergne-Rhône-Alpes (FR-ARA), Rhône (FR-69)\n"), lyon.stdout)
    }

    func testLanguageOptionNamesCountriesInThatLanguage() throws {
        let r = try CommandRunner.geonews(["--lat", "35.6762", "--lon", "139.6503", "--lang", "fr", "--no-headlines"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("Japon"), r.stdout)
        let luxembourg = try CommandRunner.geonews(["--lat", "49.6116", "--lon", "6.1319", "--no-headlines"])
        XCTAssertTrue(luxembourg.stdout.contains("Luxembourg has no news coverage; its marker is the nearest"), luxembourg.stdout)
    }

    func testHeadlinesUnavailableStillPrintsTheResolutionAndExits69() throws {
        let r = try CommandRunner.geonews(["--lat", "48.8566", "--lon", "2.3522", "--json"])
        XCTAssertEqual(r.status, 69)
        let json = try CommandRunner.json(r.stdout)
        XCTAssertEqual((json["suggestion"] as? [String: Any])?["iso2"] as? String, "FR")
        let headlines = try XCTUnwrap(json["headlines"] as? [String: Any])
        XCTAssertEqual(headlines["country"] as? String, "fr")
        XCTAssertEqual(headlines["town"] as? String, "Paris")
        XCTAssertEqual((headlines["articles"] as? [Any])?.count, 0)
        XCTAssertEqual((headlines["scopes"] as? [[String: Any]])?.map { $0["scope"] as? String }, ["town", "region", "country"])
        XCTAssertNotNil(headlines["error"] as? String)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("geonews: resolved, but no headlines:"), r.stderr)
    }

    func testHeadlinesOfTheSuggestedCountryFromALoopbackFeed() throws {
        let server = try StaticFileServer(files: [
            "rss": CommandRunner.packageRoot.appendingPathComponent("Tests/GeoNewsHeadlinesTests/Fixtures/google-news-fr.xml")
        ])
        defer { server.stop() }
        let r = try CommandRunner.geonews(
            ["--lat", "48.8566", "--lon", "2.3522", "--json", "--limit", "3", "--scope", "country"],
            environment: ["GEONEWS_GOOGLE_NEWS_URL": server.baseURL])
        XCTAssertEqual(r.status, 0, r.stderr)
        let headlines = try XCTUnwrap(try CommandRunner.json(r.stdout)["headlines"] as? [String: Any])
        XCTAssertEqual(headlines["provider"] as? String, "google-news")
        let articles = try XCTUnwrap(headlines["articles"] as? [[String: Any]])
        XCTAssertEqual(articles.count, 3)
        XCTAssertNotNil(articles.first?["title"] as? String)
        let text = try CommandRunner.geonews(
            ["--lat", "48.8566", "--lon", "2.3522", "--limit", "2", "--scope", "country"],
            environment: ["GEONEWS_GOOGLE_NEWS_URL": server.baseURL])
        XCTAssertTrue(text.stdout.contains("Headlines — Google News, 2 articles"), text.stdout)
    }

    func testCountriesSearchFindsJapanThreeWays() throws {
        for q in ["jap", "Japon", "jp"] {
            let r = try CommandRunner.geonews(["countries", "--search", q, "--json"])
            XCTAssertEqual(r.status, 0)
            let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            XCTAssertEqual(rows.first?["iso2"] as? String, "JP", q)
        }
        let news = try CommandRunner.geonews(["countries", "--news-only", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(news.stdout.utf8)) as? [Any])?.count, 54)
    }
}

/// `python3 -m http.server` over a temporary folder on 127.0.0.1, for feeds the CLI fetches.
final class StaticFileServer {
    let process = Process()
    let baseURL: String
    let root: URL

    init(files: [String: URL]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-static-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, source) in files {
            try FileManager.default.copyItem(at: source, to: root.appendingPathComponent(name))
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"port (\d+)"#, options: .regularExpression) else {
            process.terminate()
            throw XCTSkip("python3 http.server did not start: \(text)")
        }
        baseURL = "http://127.0.0.1:" + text[range].dropFirst(5)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }
}

/// `geonews` checks --category and --provider itself (it does not link the headline module);
/// its lists must stay those of GeoNewsHeadlines.
final class HeadlineOptionListTests: XCTestCase {
    func testEveryHeadlineCategoryAndProviderIsAcceptedAndNoOther() throws {
        for category in HeadlineCategory.allCases {
            let r = try CommandRunner.geonews(["--lat", "48.8566", "--lon", "2.3522", "--no-headlines", "--category", category.rawValue])
            XCTAssertEqual(r.status, 0, "\(category): \(r.stderr)")
        }
        for provider in NewsProvider.allCases {
            let r = try CommandRunner.geonews(["--lat", "48.8566", "--lon", "2.3522", "--no-headlines", "--provider", provider.rawValue])
            XCTAssertEqual(r.status, 0, "\(provider): \(r.stderr)")
        }
        let badCategory = try CommandRunner.geonews(["--lat", "48.8566", "--lon", "2.3522", "--no-headlines", "--category", "weather"])
        XCTAssertEqual(badCategory.status, 64)
        XCTAssertTrue(badCategory.stderr.contains("category 'weather'"), badCategory.stderr)
        let badProvider = try CommandRunner.geonews(["--lat", "48.8566", "--lon", "2.3522", "--no-headlines", "--provider", "bing"])
        XCTAssertEqual(badProvider.status, 64)
    }
}

import Foundation
import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

final class RegionCatalogueTests: XCTestCase {
    private static let regions = Once<RegionCatalogue>()
    private func catalogue() throws -> RegionCatalogue {
        try Self.regions.value { try RegionCatalogue.load(from: TestData.directory) }
    }

    /// Every record of the file, read independently with JSONSerialization.
    private func fileRecords() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.directory.file("regions.json")))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(object["regions"] as? [[String: Any]])
    }

    func testSubregionsAreThoseOfRegionsJSON() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.directory.file("regions.json")))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try XCTUnwrap(object["features"] as? [[String: Any]])
        let subregions = try catalogue().subregions
        XCTAssertEqual(subregions.count, features.count)
        for (sub, feature) in zip(subregions, features) {
            let expected = feature["subregion"] as? [String: Any]
            XCTAssertEqual(sub?.name, expected?["name"] as? String, "\(feature)")
            XCTAssertEqual(sub?.iso3166Code, expected?["iso3166_2"] as? String, "\(feature)")
        }
        XCTAssertGreaterThan(subregions.compactMap { $0 }.count, 1000)
    }

    func testEveryRecordOfTheFileIsLoadedAsWritten() throws {
        let records = try fileRecords()
        let regions = try catalogue().regions
        XCTAssertEqual(regions.count, records.count)
        for (r, record) in zip(regions, records) {
            XCTAssertEqual(r.country, record["country"] as? String)
            XCTAssertEqual(r.geonamesAdmin1, record["geonames"] as? String)
            XCTAssertEqual(r.iso3166Code, record["iso3166_2"] as? String)
            XCTAssertEqual(r.name, record["name"] as? String)
            XCTAssertEqual(r.names, record["names"] as? [String: String])
        }
        // The per-country slices hold the same regions as a filter over the whole list.
        for country in ["FR", "DE", "US", "GF", "AX"] {
            XCTAssertEqual(
                Array(try catalogue().regions(inCountry: country.lowercased())), regions.filter { $0.country == country }, country)
        }
    }

    func testFirstLevelCountsOfFranceAndItaly() throws {
        // Metropolitan France's 13 regions (its overseas regions are countries of their own in
        // GeoNames and ISO 3166-1: GF, RE, ...); Italy's 20, not Natural Earth's 110 provinces.
        XCTAssertEqual(try catalogue().regions(inCountry: "FR").count, 13)
        XCTAssertEqual(try catalogue().regions(inCountry: "IT").count, 20)
        XCTAssertTrue(try catalogue().regions(inCountry: "ZZ").isEmpty)
    }

    func testBavariaIsFoundByItsNamesAndCodes() throws {
        let regions = try catalogue()
        for query in ["Bavaria", "bayern", "BAV", "Bavière", "DE-BY", "de.02", "Бавария"] {
            XCTAssertEqual(regions.search(query).first?.geonamesAdmin1, "DE.02", query)
        }
        // Within a country, a code may leave out the country; outside it, nothing.
        XCTAssertEqual(regions.search("by", country: "de").first?.iso3166Code, "DE-BY")
        XCTAssertTrue(regions.search("Bavaria", country: "FR").isEmpty)
        XCTAssertEqual(regions.region(code: "de-by")?.name(in: "de"), "Bayern")
        XCTAssertEqual(regions.region(code: "DE.02")?.name(in: nil), "Bavaria")
        XCTAssertEqual(regions.region(code: "DE.02")?.name(in: "xx"), "Bavaria")
        XCTAssertNil(regions.region(code: "DE-ZZ"))
        XCTAssertNil(regions.region(code: "D"))
    }

    func testAnExactCodeComesBeforeNamePrefixes() throws {
        // "US-TX" is Texas's code; no name starts with it, but ranks must still put it first.
        let found = try catalogue().search("us-tx")
        XCTAssertEqual(found.map(\.geonamesAdmin1), ["US.TX"])
        // A word prefix inside a name counts ("rhone" finds Auvergne-Rhône-Alpes).
        XCTAssertTrue(try catalogue().search("rhone", country: "FR").contains { $0.iso3166Code == "FR-ARA" })
        XCTAssertEqual(try catalogue().search("", country: "FR").count, 13)
    }

    func testAMalformedRegionLineIsCorruptAndNamesIt() throws {
        let path = TestData.directory.file(RegionIndex.fileName)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // The first region's line ("AD<TAB>AD.02<TAB>…"): its GeoNames code made another country's.
        let header = bytes.withUnsafeBytes { b in (12..<44).map { b.loadUnaligned(fromByteOffset: $0, as: UInt32.self) } }
        let (regions, features, parts, rings, vertices, entries, text) = (
            Int(header[0]), Int(header[4]), Int(header[8]), Int(header[12]), Int(header[16]), Int(header[24]), Int(header[28])
        )
        let textAt = bytes.count - text
        XCTAssertEqual(
            textAt, 64 + parts * 32 + (rings + 1) * 4 + vertices * 8 + (360 * 180 + 1) * 4 + entries * 4 + (regions + features + 2) * 4)
        XCTAssertEqual(bytes[textAt + 3], UInt8(ascii: "A"), "the first line is AD's")
        bytes[textAt + 3] = UInt8(ascii: "X")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-regions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent(RegionIndex.fileName)
        try bytes.write(to: damaged)
        XCTAssertThrowsError(try RegionCatalogue.load(from: DataDirectory(path: folder.path))) { error in
            guard case .corrupt(let named, let why) = error as? DataError else { return XCTFail("\(error)") }
            XCTAssertEqual(named, damaged.path)
            XCTAssertTrue(why.contains("XD.02"), why)
        }
        try FileManager.default.removeItem(at: damaged)
        XCTAssertThrowsError(try RegionCatalogue.load(from: DataDirectory(path: folder.path)))
    }
}

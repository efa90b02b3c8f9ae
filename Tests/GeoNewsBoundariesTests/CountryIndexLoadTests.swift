import GeoNewsData
import XCTest

@testable import GeoNewsBoundaries

/// A stale or damaged index is an error, never a wrong answer.
final class CountryIndexLoadTests: XCTestCase {
    let path = TestData.directory.file("country-index.bin")

    private func ids() throws -> [String] { try Catalogue.load(from: TestData.directory).countries.map(\.id) }

    private func copy(mutating body: (inout [UInt8]) -> Void) throws -> String {
        let original = try MappedFile(path: path)
        var bytes = withExtendedLifetime(original) { Array(original.bytes) }
        body(&bytes)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString).bin").path
        XCTAssertTrue(FileManager.default.createFile(atPath: out, contents: Data(bytes)))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
        return out
    }

    func testTheCommittedIndexLoadsAndFitsTheCatalogue() throws {
        let index = try CountryIndex(path: path, catalogueIDs: try ids())
        XCTAssertEqual(index.countryCount, try ids().count)
        XCTAssertEqual(index.nearShoreKm, 25)
    }

    func testAnIndexForAnotherCatalogueIsStale() throws {
        var other = try ids()
        other[0] = "XXX"
        XCTAssertThrowsError(try CountryIndex(path: path, catalogueIDs: other)) { error in
            guard case DataError.stale = error else { return XCTFail("\(error)") }
        }
    }

    func testTheCommittedIndexPassesVerification() throws {
        XCTAssertNoThrow(try CountryIndex(path: path, catalogueIDs: try ids()).verify())
    }

    /// Loading checks only the header (a start reads no more than its lookups touch); the
    /// checksum of every byte is `verify()`'s, which `geonews-index --check` runs.
    func testAFlippedByteIsCaughtByTheChecksum() throws {
        let damaged = try copy { $0[$0.count / 2] ^= 0x40 }
        let index = try CountryIndex(path: damaged, catalogueIDs: try ids())
        XCTAssertThrowsError(try index.verify()) { error in
            XCTAssertEqual("\(error)".contains("checksum mismatch"), true, "\(error)")
        }
    }

    func testABadHeaderIsCaughtAtLoad() throws {
        // The first section's offset pointed past the end of the file.
        let damaged = try copy { $0[48 + 6] = 0x7F }
        XCTAssertThrowsError(try CountryIndex(path: damaged, catalogueIDs: try ids())) { error in
            XCTAssertTrue("\(error)".contains("lies outside the file"), "\(error)")
        }
    }

    func testATruncatedOrForeignFileIsRejected() throws {
        let truncated = try copy { $0.removeLast($0.count / 3) }
        XCTAssertThrowsError(try CountryIndex(path: truncated, catalogueIDs: try ids()))
        let foreign = try copy { $0[0] = UInt8(ascii: "X") }
        XCTAssertThrowsError(try CountryIndex(path: foreign, catalogueIDs: try ids())) { error in
            XCTAssertTrue("\(error)".contains("bad magic"), "\(error)")
        }
        let newer = try copy { $0[8] = 99 }
        XCTAssertThrowsError(try CountryIndex(path: newer, catalogueIDs: try ids())) { error in
            guard case DataError.stale = error else { return XCTFail("\(error)") }
        }
    }
}

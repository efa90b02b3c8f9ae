import GeoNewsBoundaries
import GeoNewsData
import GeoNewsGeodesy
import XCTest

@testable import GeoNewsTraces

/// A quote-free CSV batch through a resolver that answers by index (blocks of rows fetched
/// together, columns copied from prepared texts) writes what the row-by-row path writes from
/// each ``Resolution``, byte for byte, and counts the same summary.
final class IndexedBatchTests: XCTestCase {
    /// The same resolver, seen only as ``CountryResolving``: the processor then resolves and
    /// writes row by row.
    private struct RowByRow: CountryResolving {
        let resolver: any CountryResolving
        func resolve(_ position: Coordinate) -> Resolution { resolver.resolve(position) }
    }

    /// Seeded positions uniform over the sphere (about 70 % at sea), and the hard places: the
    /// poles, the antimeridian from both sides, a border, an enclave, coasts; and rows that do
    /// not resolve, which the general path writes in their place.
    private func input(rows: Int) -> String {
        var text = "id,lat,lon\n"
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for i in 0..<rows {
            let lat = asin(2 * next() - 1) * 180 / .pi, lon = 360 * next() - 180
            text += "\(i),\(String(format: "%.6f", lat)),\(String(format: "%.6f", lon))\n"
        }
        text += """
            p1,90,0
            p2,-90,45
            a1,65.5,180
            a2,65.5,-180
            a3,-16.5,179.9999999
            b1,46.2044,6.1432
            e1,41.9029,12.4534
            e2,43.7384,7.4246
            c1,51.95,1.45
            x1,abc,2
            x2,91,0

            x3,10,20,30
            x4,,
            n1,NaN,0
            """
        return text + "\nlast,48.8566,2.3522"
    }

    private func assertSameBatch(
        _ resolver: any IndexedCountryResolving, borderDistance: Bool, places: PlaceIndex? = nil, regions: RegionIndex? = nil,
        rows: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let text = input(rows: rows)
        let configure: (inout BatchResolveOptions) -> Void = {
            $0.followsTraces = false
            $0.includesBorderDistance = borderDistance
            $0.places = places
            $0.regions = regions
            $0.chunkBytes = 64 * 1024
        }
        let layout = try CSVLayout(header: ["id", "lat", "lon"], options: BatchResolveOptions())
        let columns = ResolvedColumns(includesBorderDistance: borderDistance, places: places, regions: regions)
        XCTAssertTrue(
            CSVChunkProcessor(layout: layout, resolver: resolver, output: .csv, followsTraces: false, columns: columns).writesByIndex,
            file: file, line: line)
        XCTAssertFalse(
            CSVChunkProcessor(layout: layout, resolver: RowByRow(resolver: resolver), output: .csv, followsTraces: false, columns: columns)
                .writesByIndex, file: file, line: line)
        let indexed = try resolveBatch(text, resolver: resolver, configure: configure)
        let rowByRow = try resolveBatch(text, resolver: RowByRow(resolver: resolver), configure: configure)
        let a = lines(indexed.text), b = lines(rowByRow.text)
        XCTAssertEqual(a.count, 1 + rows + 15, "the header and every record but the blank line", file: file, line: line)
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (k, (x, y)) in zip(a, b).enumerated() where x != y {
            XCTFail("line \(k + 1): \(x) ≠ \(y)", file: file, line: line)
            break
        }
        XCTAssertEqual(indexed.summary.countries, rowByRow.summary.countries, file: file, line: line)
        XCTAssertEqual(indexed.summary.atSea, rowByRow.summary.atSea, file: file, line: line)
        XCTAssertEqual(indexed.summary.recordsResolved, rowByRow.summary.recordsResolved, file: file, line: line)
        XCTAssertEqual(indexed.summary.recordsInError, rowByRow.summary.recordsInError, file: file, line: line)
        XCTAssertEqual(indexed.summary.recordsInError, 5, file: file, line: line)
        XCTAssertEqual(indexed.summary.regions, rowByRow.summary.regions, "rows per region", file: file, line: line)
        // The answers are real ones: land and sea, news countries and others, named zones and
        // the open ocean's.
        XCTAssertGreaterThan(indexed.summary.atSea, rows / 2, file: file, line: line)
        XCTAssertGreaterThan(indexed.summary.countries.count, 50, file: file, line: line)
        XCTAssertTrue(a.contains { $0.hasPrefix("b1,") && $0.contains(",CH,CH,inside,0.000,Europe/Zurich,") }, file: file, line: line)
        XCTAssertTrue(a.contains { $0.hasPrefix("e1,") && $0.contains(",VA,") }, file: file, line: line)
        XCTAssertTrue(a.contains { $0.contains(",nearest-marker,") && $0.contains(",Etc/GMT") }, file: file, line: line)
        if borderDistance {
            let paris = try XCTUnwrap(a.last?.split(separator: ",", omittingEmptySubsequences: false))
            XCTAssertEqual(paris.count, 10 + (places == nil ? 0 : 3) + (regions == nil ? 0 : 3), file: file, line: line)
            XCTAssertGreaterThan(Double(paris[8]) ?? 0, 100, "Paris lies over 100 km from France's edge: \(paris)", file: file, line: line)
        }
        if regions != nil {
            XCTAssertTrue(a[0].contains(",region_iso3166_2,region_geonames,region_name,"), a[0], file: file, line: line)
            XCTAssertTrue(a.last?.contains(",FR-IDF,FR.11,Île-de-France,") ?? false, a.last ?? "", file: file, line: line)
            XCTAssertGreaterThan(indexed.summary.regions.count, 100, "regions of many countries", file: file, line: line)
        }
        if places != nil, regions == nil {
            XCTAssertEqual(
                a.first,
                "id,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,"
                    + (borderDistance ? "border_distance_km," : "") + "place_name,place_geonameid,place_distance_km,error",
                file: file, line: line)
            // Paris's centre: the 4th arrondissement's point, 404 m away; Geneva's border row a Swiss place.
            XCTAssertTrue(a.last?.hasSuffix(",Paris 04 Hôtel-de-Ville,3013131,0.404,") ?? false, a.last ?? "", file: file, line: line)
            let geneva = try XCTUnwrap(a.first { $0.hasPrefix("b1,") }?.split(separator: ",", omittingEmptySubsequences: false))
            XCTAssertFalse(geneva[geneva.count - 4].isEmpty, "a place in Switzerland", file: file, line: line)
            // Far out at sea most rows have no place, and near coasts some do.
            let seaRows = a.filter { $0.contains(",,") && !$0.contains("line ") }
            XCTAssertTrue(seaRows.contains { $0.hasSuffix(",,,,") }, "an open-sea row with no place", file: file, line: line)
        }
    }

    func testABatchResolverWritesWhatItsRowsResolveTo() throws {
        let resolver = try XCTUnwrap(TraceJourneyTests.resolver, "Data/ must hold the indexes")
        try assertSameBatch(resolver, borderDistance: false, rows: 20_000)
    }

    /// With the place columns: the nearest place written by index (names copied from the place
    /// index, quoted where they hold a comma) is the one the row-by-row path writes from
    /// ``PlaceIndex/place(for:)``.
    func testThePlaceColumnsAreTheSameByIndexAndRowByRow() throws {
        let resolver = try XCTUnwrap(TraceJourneyTests.resolver, "Data/ must hold the indexes")
        let places = try PlaceIndex.load(source: DataDirectory.locate().file("places.tsv.gz"), index: "/nonexistent/places.bin")
        try assertSameBatch(resolver, borderDistance: false, places: places, rows: 4_000)
    }

    /// With the region columns: the region written by index (its three fields copied from texts
    /// made once, rows counted by region index) is the one the row-by-row path writes from
    /// ``RegionIndex/region(for:)``, with the plain index and with the edge index.
    func testTheRegionColumnsAreTheSameByIndexAndRowByRow() throws {
        let resolver = try XCTUnwrap(TraceJourneyTests.resolver, "Data/ must hold the indexes")
        let data = try DataDirectory.locate()
        let regions = try RegionIndex.load(from: data)
        let places = try PlaceIndex.load(source: data.file("places.tsv.gz"), index: "/nonexistent/places.bin")
        try assertSameBatch(resolver, borderDistance: false, regions: regions, rows: 2_000)
        try assertSameBatch(resolver, borderDistance: false, places: places, regions: regions.withEdgeIndex(), rows: 2_000)
    }

    func testTheServersResolverWithBorderDistancesWritesWhatItsRowsResolveTo() throws {
        let base = try XCTUnwrap(TraceJourneyTests.resolver, "Data/ must hold the indexes")
        let server = CountryResolver(
            catalogue: base.catalogue, index: base.index, areas: base.areas, zoneIDs: base.zoneIDs, options: .server)
        try assertSameBatch(server.measuring(.batchWithBorderDistance), borderDistance: true, rows: 3_000)
    }
}

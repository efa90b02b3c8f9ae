import Foundation
import GeoNewsBoundaries
import GeoNewsBoundaryBuilding
import GeoNewsTimeZones
import XCTest

/// One split of the zones the area tests need, shared by them (GEOS takes some seconds), with
/// its `country-areas.bin` written to a temporary file.
enum AreaTestData {
    static let zones: Set = [
        "Europe/Belgrade", "Asia/Bangkok", "Asia/Jerusalem", "Asia/Hebron", "Europe/Paris", "Etc/GMT",
        "Asia/Shanghai", "Europe/Copenhagen", "America/New_York", "Europe/Rome", "Europe/Busingen",
        "Europe/Vatican", "Europe/San_Marino", "Europe/Monaco", "Europe/Madrid",
        "Europe/Brussels", "Europe/Amsterdam", "Europe/Kaliningrad", "America/Los_Angeles", "America/Chicago",
        "Asia/Anadyr", "Pacific/Fiji", "Antarctica/McMurdo",
    ]

    struct Split {
        let decisions: [CountryAreaSplitter.Decision]
        let areas: CountryAreaFile
    }

    private static let made = Once<Split>()

    static func split() throws -> Split {
        try made.value(makeSplit)
    }

    private static func makeSplit() throws -> Split {
        let folder = TestData.packageRoot.appendingPathComponent(".build-data").path
        guard FileManager.default.fileExists(atPath: folder + "/" + TimeZoneBoundaryFile.fileName) else {
            throw XCTSkip("the decoded time zones are not built: run python3 Scripts/build_timezones.py --ensure --fetch")
        }
        let result = try CountryAreaSplitter().build(data: TestData.directory, geometryFolder: folder, only: zones)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("geonews-areas-\(getpid()).bin").path
        try Data(result.areaFile).write(to: URL(fileURLWithPath: path))
        // The mapping stays valid after the file is unlinked.
        let areas = try CountryAreaFile(path: path)
        try? FileManager.default.removeItem(atPath: path)
        return Split(decisions: result.decisions, areas: areas)
    }
}

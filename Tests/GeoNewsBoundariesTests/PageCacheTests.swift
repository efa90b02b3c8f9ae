#if os(Linux)
import Foundation
import Glibc
import XCTest

@testable import GeoNewsBoundaries
@testable import GeoNewsData

/// What the indexes leave in the kernel's page cache and how their mappings read it: a lookup's
/// fault reads its own page and no run ahead of it, an install leaves none of what it wrote
/// cached, and a check of installed files leaves the cache as it found it. Otherwise a later
/// fault maps every cached page around it (64 KB, or a whole large folio on Linux 6.18), and a
/// batch holds most of both indexes resident where it reads about half of them.
final class PageCacheTests: XCTestCase {
    /// A folder for the test's files beside the build (a disk's file system, where `/tmp` may
    /// be a tmpfs, which keeps every page in the cache whatever it is told).
    private func diskFolder() throws -> String {
        let folder = TestData.packageRoot.appendingPathComponent(".build/page-cache-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    /// The `VmFlags` of this process's mapping of `path` (two-letter codes; `rr` is
    /// `MADV_RANDOM`'s), from `/proc/self/smaps`; `nil` when nothing maps it.
    private func vmFlags(ofMappingOf path: String) throws -> Set<String>? {
        // Read to the end by hand: a file of /proc declares no size to read up to.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                inMapping = line.hasSuffix(" " + path)
            } else if inMapping, line.hasPrefix("VmFlags:") {
                return Set(line.dropFirst("VmFlags:".count).split(separator: " ").map(String.init))
            }
        }
        return nil
    }

    /// How many of the file's pages the page cache holds.
    private func cachedPages(_ path: String) throws -> (cached: Int, pages: Int) {
        let file = try MappedFile(path: path)
        let residency = try XCTUnwrap(PageCache.residency(of: file), "mincore of \(path)")
        return (residency.filter { $0 }.count, residency.count)
    }

    /// Reads every byte of the file, as a backup or a copy would, so that the cache holds it.
    private func readWhole(_ path: String) throws -> Int {
        try Data(contentsOf: URL(fileURLWithPath: path)).count
    }

    func testARandomMappingReadsNoPageAheadAndAScanMayReadAheadAgain() throws {
        let path = try diskFolder() + "/pages.bin"
        try Data(repeating: 7, count: 64 * 4096).write(to: URL(fileURLWithPath: path))
        let random = try MappedFile(path: path, access: .random)
        XCTAssertEqual(try vmFlags(ofMappingOf: path)?.contains("rr"), true)
        random.advise(.normal)
        XCTAssertEqual(try vmFlags(ofMappingOf: path)?.contains("rr"), false)
        random.advise(.random)
        XCTAssertEqual(try vmFlags(ofMappingOf: path)?.contains("rr"), true)
        withExtendedLifetime(random) {}
    }

    func testTheResolversIndexesAreMappedForRandomReads() throws {
        let resolver = try TestData.resolver()
        // The kernel names a mapping by its file's real path (no `..`).
        let folder = try XCTUnwrap(realpath(TestData.directory.areaIndexFolder, nil).map { String(cString: $0) })
        for name in [AreaIndexRecord.fileName, LandIndexFormat.fileName] {
            let flags = try XCTUnwrap(try vmFlags(ofMappingOf: folder + "/" + name), "\(name) is not mapped")
            XCTAssertTrue(flags.contains("rr"), "\(name): \(flags.sorted())")
        }
        withExtendedLifetime(resolver) {}
    }

    /// On the hand-made area index and the tiny land (their root grids alone are 64 pages
    /// each), so that the test decodes no real pack.
    func testAnInstallLeavesNothingCachedAndACheckLeavesTheCacheAsItFoundIt() throws {
        let (dir, _, _) = try LandIndexPackTests.writeBothPacks(into: try diskFolder())
        let target = dir.path + "/indexes"
        try dir.installAreaIndex(into: target)
        let area = target + "/" + AreaIndexRecord.fileName, land = target + "/" + LandIndexFormat.fileName
        func assertNoneCached(_ path: String, _ when: String, line: UInt = #line) throws {
            let (cached, pages) = try cachedPages(path)
            XCTAssertGreaterThanOrEqual(pages, 64, path, line: line)
            XCTAssertEqual(cached, 0, "\(path): \(cached) of \(pages) pages cached \(when)", line: line)
        }
        // Every page was written and synced, then dropped.
        try assertNoneCached(area, "after the install")
        try assertNoneCached(land, "after the install")
        // Installed already: the check reads both files whole and leaves nothing behind.
        try dir.installAreaIndex(into: target)
        try assertNoneCached(area, "after a check")
        try assertNoneCached(land, "after a check")
        // The whole area index cached by another reader (a copy, a backup): the check leaves it.
        XCTAssertGreaterThan(try readWhole(area), 0)
        let before = try cachedPages(area)
        XCTAssertEqual(before.cached, before.pages)
        try dir.installAreaIndex(into: target)
        XCTAssertEqual(try cachedPages(area).cached, before.pages)
        try assertNoneCached(land, "after a check with the area index cached")
    }
}
#endif

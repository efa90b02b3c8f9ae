import Foundation
import GeoNewsBoundaries

/// The committed Data/ directory, loaded once for all tests.
enum TestData {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = DataDirectory(path: packageRoot.appendingPathComponent("Data").path)

    nonisolated(unsafe) private static var cached: CountryResolver?
    private static let lock = NSLock()

    static func resolver() throws -> CountryResolver {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let r = try CountryResolver.load(from: directory)
        cached = r
        return r
    }
}

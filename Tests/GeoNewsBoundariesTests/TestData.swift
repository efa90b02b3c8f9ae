import Foundation
import GeoNewsBoundaries
import GeoNewsData

/// The committed Data/ directory, loaded once for all tests.
enum TestData {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = DataDirectory(path: packageRoot.appendingPathComponent("Data").path)

    private static let loaded = Once<CountryResolver>()
    private static let naturalEarth = Once<CountryIndex>()

    static func resolver() throws -> CountryResolver {
        try loaded.value { try CountryResolver.load(from: directory) }
    }

    /// Natural Earth's country index, `country-index.bin`, with its polygons for exact answers
    /// on a clipped edge (the resolver's land is OpenStreetMap's, `land-index.bin`).
    static func naturalEarthIndex() throws -> CountryIndex {
        try naturalEarth.value {
            try CountryIndex(
                path: directory.file("country-index.bin"), catalogueIDs: try resolver().catalogue.countries.map(\.id),
                boundaries: BoundaryFile(directory: directory))
        }
    }
}

/// A value worked out by the first test that asks for it and shared by the others.
final class Once<Value>: @unchecked Sendable {
    // Sendable: `cached` is only touched under `lock`.
    private var cached: Value?
    private let lock = NSLock()

    func value(_ make: () throws -> Value) rethrows -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let made = try make()
        cached = made
        return made
    }
}

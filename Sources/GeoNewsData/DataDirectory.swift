#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder holding GeoNews's derived data (`countries.json`, `boundaries.bin`,
/// `country-index.bin`, `google-news-editions.json`).
public struct DataDirectory: Sendable, Hashable {
    public let path: String

    public init(path: String) {
        self.path = path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// The folder of derived data too large to commit (`area-index.bin`, `country-areas.bin`,
    /// the decoded time-zone geometry): `$GEONEWS_BUILD_DATA` if set; else this folder itself
    /// when it holds `area-index.bin` (an installed layout, such as the Debian package's
    /// `/usr/share/geonews/Data`); else `.build-data` beside this folder (a checkout).
    public var buildFolder: String {
        if let env = getenv("GEONEWS_BUILD_DATA") { return String(cString: env) }
        if Self.exists(file("area-index.bin")) { return path }
        return path + "/../.build-data"
    }

    /// Finds the data folder: `$GEONEWS_DATA` if set; else a `Data/` folder holding
    /// `countries.json` in the executable's folder or any folder above it (a build inside the
    /// checkout finds the checkout's `Data/`), then the installed layouts (`share/geonews/Data`
    /// under the executable's prefix, whether the executable is in `bin/` or, as the Debian
    /// package has it, in `lib/geonews/`), then the working directory and the folders above it.
    public static func locate() throws(DataError) -> DataDirectory {
        if let env = getenv("GEONEWS_DATA") {
            let dir = DataDirectory(path: String(cString: env))
            guard exists(dir.file("countries.json")) else {
                throw .notFound(searched: ["GEONEWS_DATA=\(dir.path)"])
            }
            return dir
        }
        var searched: [String] = []
        var candidates: [String] = []
        if let exe = executableDirectory() {
            candidates += ancestors(of: exe).map { $0 + "/Data" }
            candidates.append(exe + "/../share/geonews/Data")
            candidates.append(exe + "/../../share/geonews/Data")
        }
        if let cwd = currentDirectory() {
            candidates += ancestors(of: cwd).map { $0 + "/Data" }
        }
        for c in candidates {
            if exists(c + "/countries.json") { return DataDirectory(path: c) }
            searched.append(c)
        }
        throw .notFound(searched: Array(searched.prefix(4)) + (searched.count > 4 ? ["…"] : []))
    }

    private static func exists(_ path: String) -> Bool { access(path, R_OK) == 0 }

    private static func ancestors(of dir: String) -> [String] {
        var result: [String] = []
        var d = dir
        while true {
            result.append(d)
            guard let slash = d.lastIndex(of: "/"), d != "/" else { break }
            let parent = String(d[..<slash])
            d = parent.isEmpty ? "/" : parent
            if result.count > 12 { break }
        }
        return result
    }

    private static func executableDirectory() -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = exe.lastIndex(of: "/") else { return nil }
        return String(exe[..<slash])
    }

    private static func currentDirectory() -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buf, buf.count) != nil else { return nil }
        let end = buf.firstIndex(of: 0) ?? buf.count
        return String(decoding: buf[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

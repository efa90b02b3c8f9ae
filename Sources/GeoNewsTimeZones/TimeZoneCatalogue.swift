import GeoNewsData

/// The IANA time zones of `Data/timezones.json`, in the order of `timezone-boundaries.bin`,
/// each with the country tzdata's `zone.tab` gives it. Written by `Scripts/build_timezones.py`.
public struct TimeZoneCatalogue: Sendable {
    /// One zone of timezone-boundary-builder.
    public struct Zone: Sendable, Hashable, Codable {
        /// The IANA id, e.g. `Asia/Kolkata`, `Etc/GMT-12`.
        public let id: String
        /// ISO 3166-1 alpha-2 code from `zone.tab`; `nil` for `Etc/…`, the open ocean.
        public let country: String?
        public let polygons: Int
        public let vertices: Int

        /// True for `Etc/GMT±N`, which timezone-boundary-builder uses for the open ocean.
        public var isOcean: Bool { country == nil }
    }

    /// The decoded geometry file that goes with this catalogue, with its hash.
    public struct Geometry: Sendable, Hashable, Codable {
        public let file: String
        public let bytes: Int
        public let sha256: String
        public let zones: Int, polygons: Int, rings: Int, vertices: Int
    }

    public let zones: [Zone]
    public let geometry: Geometry

    public static let fileName = "timezones.json"

    public static func load(from directory: DataDirectory) throws(DataError) -> TimeZoneCatalogue {
        let path = directory.file(fileName)
        let doc = try MappedFile(path: path).decodeJSON(Document.self)
        guard doc.zones.count == doc.geometry.zones else {
            throw .corrupt(path: path, reason: "\(doc.zones.count) zones listed, the geometry has \(doc.geometry.zones)")
        }
        return TimeZoneCatalogue(zones: doc.zones, geometry: doc.geometry)
    }

    /// Maps the decoded geometry and checks that it is the one this catalogue describes
    /// (its size and counts; the sha256 is checked by `Scripts/build_timezones.py --check`).
    public func boundaries(in folder: String) throws(DataError) -> TimeZoneBoundaryFile {
        let path = folder + "/" + geometry.file
        let file = try TimeZoneBoundaryFile(path: path)
        guard file.file.bytes.count == geometry.bytes, file.zoneCount == geometry.zones,
            file.polygonCount == geometry.polygons, file.vertexCount == geometry.vertices
        else {
            throw .stale(path: path, reason: "it does not match \(Self.fileName); run python3 Scripts/build_timezones.py --fetch")
        }
        return file
    }

    /// The index of the zone with this IANA id.
    public func index(of id: String) -> Int? { zones.firstIndex { $0.id == id } }

    private struct Document: Decodable {
        let geometry: Geometry
        let zones: [Zone]
    }
}

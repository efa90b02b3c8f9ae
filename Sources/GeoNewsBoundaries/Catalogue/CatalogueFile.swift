import GeoNewsData
import GeoNewsGeodesy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `catalogue.bin`: `countries.json` compiled to length-prefixed fields, so that a cold start
/// reads the catalogue in well under a millisecond instead of decoding JSON.
///
/// ```
/// "GNCATLG1"  u32 version  u32 count  u64 FNV-1a 64 of countries.json
/// strings: source name, version, file, sha256, licence, credit; u32 n + n language codes
/// per country: id, iso2, iso3, name, continent, sovereign, sovereignIso2 (empty = none),
///              u8 news, f64 lat, lon, west, south, east, north, one name per language
/// ```
/// Strings are u32 byte length + UTF-8. `countries.json` stays the source of truth: the
/// recorded hash must match it, or loading fails as stale.
enum CatalogueFile {
    static let magic = Array("GNCATLG1".utf8)
    static let version: UInt32 = 1

    static func encode(_ c: Catalogue, jsonFingerprint: UInt64) -> [UInt8] {
        var out = magic
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func f64(_ v: Double) { u64(v.bitPattern) }
        func str(_ s: String?) {
            let b = Array((s ?? "").utf8)
            u32(UInt32(b.count))
            out.append(contentsOf: b)
        }
        u32(version)
        u32(UInt32(c.countries.count))
        u64(jsonFingerprint)
        let sourceFields: [String] = [c.source.name, c.source.version, c.source.file, c.source.sha256, c.source.licence, c.source.credit]
        for field in sourceFields { str(field) }
        u32(UInt32(c.languages.count))
        for language in c.languages { str(language) }
        for k in c.countries {
            let fields: [String?] = [k.id, k.iso2, k.iso3, k.name, k.continent, k.sovereign, k.sovereignIso2]
            for field in fields { str(field) }
            out.append(k.hasNews ? 1 : 0)
            for v in [k.marker.latitude, k.marker.longitude, k.bbox.west, k.bbox.south, k.bbox.east, k.bbox.north] { f64(v) }
            for lang in c.languages { str(k.names[lang]) }
        }
        return out
    }

    static func decode(_ file: MappedFile, expectedJSONFingerprint: UInt64) throws(DataError) -> Catalogue {
        var reader = Reader(file: file, offset: 0)
        guard file.bytes.count >= 24, Array(file.bytes[0..<8]) == magic else {
            throw .corrupt(path: file.path, reason: "not a GeoNews catalogue (bad magic)")
        }
        reader.offset = 8
        let v = try reader.u32()
        guard v == version else { throw .stale(path: file.path, reason: "catalogue format \(v), this build reads \(version)") }
        let count = Int(try reader.u32())
        guard try reader.u64() == expectedJSONFingerprint else {
            throw .stale(path: file.path, reason: "countries.json has changed since it was compiled")
        }
        let source = DataSource(
            name: try reader.string(), version: try reader.string(), file: try reader.string(),
            sha256: try reader.string(), licence: try reader.string(), credit: try reader.string())
        let languageCount = Int(try reader.u32())
        var languages: [String] = []
        for _ in 0..<languageCount { languages.append(try reader.string()) }
        var countries: [Country] = []
        countries.reserveCapacity(count)
        for _ in 0..<count {
            let id = try reader.string(), iso2 = try reader.optionalString(), iso3 = try reader.optionalString()
            let name = try reader.string(), continent = try reader.string(), sovereign = try reader.string()
            let sovereignIso2 = try reader.optionalString()
            let news = try reader.u8() == 1
            let lat = try reader.f64(), lon = try reader.f64()
            let bbox = BoundingBox(west: try reader.f64(), south: try reader.f64(), east: try reader.f64(), north: try reader.f64())
            var names: [String: String] = [:]
            names.reserveCapacity(languageCount)
            for lang in languages {
                let n = try reader.string()
                if !n.isEmpty { names[lang] = n }
            }
            countries.append(
                Country(
                    id: id, iso2: iso2, iso3: iso3, name: name, names: names, continent: continent,
                    sovereign: sovereign, sovereignIso2: sovereignIso2, hasNews: news,
                    marker: Coordinate(latitude: lat, longitude: lon), bbox: bbox))
        }
        guard reader.offset == file.bytes.count else { throw .corrupt(path: file.path, reason: "trailing bytes") }
        return Catalogue(countries: countries, languages: languages, source: source)
    }

    private struct Reader {
        let file: MappedFile
        var offset: Int

        mutating func u8() throws(DataError) -> UInt8 {
            let v = try file.integer(UInt8.self, at: offset)
            offset += 1
            return v
        }
        mutating func u32() throws(DataError) -> UInt32 {
            let v = try file.integer(UInt32.self, at: offset)
            offset += 4
            return v
        }
        mutating func u64() throws(DataError) -> UInt64 {
            let v = try file.integer(UInt64.self, at: offset)
            offset += 8
            return v
        }
        mutating func f64() throws(DataError) -> Double { Double(bitPattern: try u64()) }
        mutating func string() throws(DataError) -> String {
            let n = Int(try u32())
            guard offset + n <= file.bytes.count else { throw .corrupt(path: file.path, reason: "truncated at byte \(offset)") }
            let s = String(decoding: UnsafeRawBufferPointer(rebasing: file.bytes[offset..<(offset + n)]), as: UTF8.self)
            offset += n
            return s
        }
        mutating func optionalString() throws(DataError) -> String? {
            let s = try string()
            return s.isEmpty ? nil : s
        }
    }
}

/// The record formats `geonews resolve` reads and writes.
public enum RecordFormat: String, Sendable, CaseIterable, Codable {
    /// RFC 4180 comma-separated values.
    case csv
    /// One JSON object per line.
    case ndjson
    /// A GeoJSON FeatureCollection of Points and LineStrings.
    case geojson
    /// GPX 1.1 (read only).
    case gpx

    /// The format named by a file's extension (`.csv`, `.ndjson`/`.jsonl`, `.geojson`, `.gpx`),
    /// case-insensitive; `nil` for others, which are then sniffed.
    public static func forPath(_ path: String) -> RecordFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "csv", "txt": return .csv
        case "ndjson", "jsonl", "ldjson": return .ndjson
        case "geojson": return .geojson
        case "gpx": return .gpx
        default: return nil
        }
    }

    /// The format the first bytes of an input look like: `<` is GPX, a first line holding a whole
    /// object is NDJSON unless it is a FeatureCollection, another `{` is GeoJSON, anything else CSV.
    static func sniff(_ head: UnsafeBufferPointer<UInt8>) -> RecordFormat {
        var i = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.count else { return .csv }
        if head[i] == UInt8(ascii: "<") { return .gpx }
        guard head[i] == UInt8(ascii: "{") else { return .csv }
        let lineEnd = head[i...].firstIndex(of: 0x0A) ?? head.count
        let line = String(decoding: UnsafeBufferPointer(rebasing: head[i..<lineEnd]), as: UTF8.self)
        if line.contains("FeatureCollection") { return .geojson }
        let scanner = JSONScanner(UnsafeBufferPointer(rebasing: head[i..<lineEnd]))
        return (try? scanner.valueEnd(0)) != nil ? .ndjson : .geojson
    }
}

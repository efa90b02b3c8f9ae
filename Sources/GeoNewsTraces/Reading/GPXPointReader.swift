/// One `trkpt`, `rtept` or `wpt` of a GPX file, with its text as written.
struct GPXPoint: Sendable {
    var kind: String
    /// The track or route name, or `track N` / `route N` (1-based) without one; `waypoints`.
    var traceID: String
    /// 1-based track segment within its track (0 for route points and waypoints).
    var segment: Int
    var latitude: String?
    var longitude: String?
    var elevation: String?
    var time: String?
    var name: String?
    var line: Int
    /// Set when the point cannot be read (the file ends inside it).
    var problem: String?

    static let fieldNames = ["kind", "trace_id", "segment", "lat", "lon", "ele", "time", "name"]

    var fieldValues: [FieldValue] {
        [
            .text(kind), .text(traceID), .text(String(segment)), latitude.map(FieldValue.text) ?? .absent,
            longitude.map(FieldValue.text) ?? .absent, elevation.map(FieldValue.text) ?? .absent,
            time.map(FieldValue.text) ?? .absent, name.map(FieldValue.text) ?? .absent,
        ]
    }
}

/// Streams the points of a GPX 1.1 file in document order, holding only the unread tail of the
/// current block. Namespace prefixes are ignored; comments, CDATA and processing instructions
/// are understood; entities in text are decoded.
final class GPXPointReader {
    private let reader: BlockReader
    private let batch: Int
    private var position = 0
    private var line = 1
    private var stack: [String] = []
    private var trackIndex = 0
    private var routeIndex = 0
    private var segment = 0
    private var routeOrTrackName: String?
    private var point: GPXPoint?
    private var capturedText = ""

    init(source: ByteSource, chunkBytes: Int) {
        reader = BlockReader(source: source, blockBytes: max(65536, chunkBytes / 2))
        batch = max(256, chunkBytes / 100)
    }

    /// The next points, up to a batch; `nil` at the end.
    func next() throws(BatchResolveError) -> [GPXPoint]? {
        var points: [GPXPoint] = []
        while points.count < batch {
            if let p = scanToPointEnd() { points.append(p); continue }
            if reader.atEnd { break }
            reader.consume(position)
            position = 0
            _ = try reader.readMore()
        }
        if points.isEmpty {
            if var open = point {
                point = nil
                open.problem = "truncated GPX: the \(open.kind) opened on this line is never closed"
                return [open]
            }
            return nil
        }
        return points
    }

    /// Reads markup until a point closes; nil when the buffer runs out first (the unfinished
    /// construct stays unread for the next block).
    private func scanToPointEnd() -> GPXPoint? {
        let b = reader.bytes
        while position < b.count {
            guard b[position] == UInt8(ascii: "<") else {
                let textEnd = b[position...].firstIndex(of: UInt8(ascii: "<")) ?? b.count
                let text = b[position..<textEnd]
                line += text.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                if point != nil || stack.last == "name" { capturedText += String(decoding: text, as: UTF8.self) }
                position = textEnd
                continue
            }
            let rest = b[position...]
            if rest.count < 9 && !reader.atEnd { return nil }
            let (terminator, skip): ([UInt8], Int) =
                rest.starts(with: Array("<!--".utf8))
                ? (Array("-->".utf8), 4)
                : rest.starts(with: Array("<![CDATA[".utf8))
                    ? (Array("]]>".utf8), 9)
                    : rest.starts(with: Array("<?".utf8))
                        ? (Array("?>".utf8), 2)
                        : ([UInt8(ascii: ">")], 1)
            guard let end = Self.find(terminator, in: b, from: position + skip, quoted: terminator.count == 1) else {
                if !reader.atEnd { return nil }
                position = b.count
                return nil
            }
            let constructEnd = end + terminator.count
            let inner = Array(b[(position + skip)..<end])
            line += inner.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            let tagLine = line
            position = constructEnd
            if skip == 9 { capturedText += String(decoding: inner, as: UTF8.self); continue }
            if skip != 1 || inner.first == UInt8(ascii: "!") { continue }
            if let finished = handleTag(inner, line: tagLine) { return finished }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in b: [UInt8], from: Int, quoted: Bool) -> Int? {
        var i = from
        var quote: UInt8 = 0
        while i + needle.count <= b.count {
            let c = b[i]
            if quoted {
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                } else if c == needle[0] {
                    return i
                }
            } else if c == needle[0], b[i..<(i + needle.count)].elementsEqual(needle) {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Updates the context for one tag (`inner` is between `<` and `>`); returns a finished point.
    private func handleTag(_ inner: [UInt8], line tagLine: Int) -> GPXPoint? {
        let closing = inner.first == UInt8(ascii: "/")
        let selfClosing = inner.last == UInt8(ascii: "/")
        // `</>` is both: its body is empty, not a range that ends before it starts.
        let bodyStart = closing ? 1 : 0
        let body = inner[bodyStart..<max(bodyStart, selfClosing ? inner.count - 1 : inner.count)]
        let nameEnd = body.firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } ?? body.endIndex
        var name = String(decoding: body[body.startIndex..<nameEnd], as: UTF8.self)
        if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }

        if closing {
            let text = XMLText.decode(capturedText).trimmingSpaces.trimmingCharacters(in: "\n\r\t ")
            if stack.last == name { stack.removeLast() }
            switch name {
            case "ele": point?.elevation = text
            case "time": point?.time = text
            case "name":
                if point != nil { point?.name = text } else if stack.last == "trk" || stack.last == "rte" { routeOrTrackName = text }
            case "trkpt", "rtept", "wpt":
                defer { point = nil }
                return point
            default: break
            }
            capturedText = ""
            return nil
        }
        capturedText = ""
        let attributes = XMLText.attributes(Array(body[nameEnd...]))
        switch name {
        case "trk": trackIndex += 1; segment = 0; routeOrTrackName = nil
        case "rte": routeIndex += 1; routeOrTrackName = nil
        case "trkseg": segment += 1
        case "trkpt", "rtept", "wpt":
            let trace: String
            switch name {
            case "trkpt": trace = routeOrTrackName ?? "track \(trackIndex)"
            case "rtept": trace = routeOrTrackName ?? "route \(routeIndex)"
            default: trace = "waypoints"
            }
            let p = GPXPoint(
                kind: name, traceID: trace, segment: name == "trkpt" ? segment : 0,
                latitude: attributes["lat"], longitude: attributes["lon"], elevation: nil,
                time: nil, name: nil, line: tagLine)
            if selfClosing { return p }
            point = p
        default: break
        }
        if !selfClosing { stack.append(name) }
        return nil
    }
}

/// XML attribute and entity decoding, enough for GPX.
enum XMLText {
    static func attributes(_ b: [UInt8]) -> [String: String] {
        var result: [String: String] = [:]
        let text = String(decoding: b, as: UTF8.self)
        var rest = Substring(text)
        while let eq = rest.firstIndex(of: "=") {
            let key = rest[..<eq].trimmingCharacters(in: "\n\r\t ")
            var after = rest[rest.index(after: eq)...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard let quote = after.first, quote == "\"" || quote == "'" else { break }
            after = after.dropFirst()
            guard let close = after.firstIndex(of: quote) else { break }
            var k = Substring(key)
            if let colon = k.lastIndex(of: ":") { k = k[k.index(after: colon)...] }
            result[String(k)] = decode(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return result
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let code =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let code, let scalar = Unicode.Scalar(code) { out.unicodeScalars.append(scalar) } else { out += "&\(entity);" }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}

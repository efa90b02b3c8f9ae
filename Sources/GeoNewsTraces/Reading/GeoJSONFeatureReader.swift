/// One Feature's JSON text, cut out of a FeatureCollection.
package struct FeatureText: Sendable {
    package var bytes: [UInt8]
    /// 1-based position of the feature in the collection.
    package var index: Int
    /// Line of the feature's opening brace.
    package var line: Int
}

/// Streams the Features of a GeoJSON FeatureCollection one by one, holding only the feature
/// being read: a collection of any size is read in bounded memory.
///
/// The scan tracks JSON strings and nesting only; each Feature is then parsed on a worker. A
/// top-level value that is a single Feature (not a collection) is read as a one-feature input.
package final class GeoJSONFeatureReader {
    private let reader: BlockReader
    private let chunkBytes: Int
    private var position = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var stringStart = 0
    private var lastKey: [UInt8] = []
    private var awaitingFeaturesArray = false
    private var inFeatures = false
    private var featureStart: Int?
    private var featureLine = 0
    /// The element being read is a string, number, `true`, `false` or `null`, not an object:
    /// still a record (an error row) with its own number.
    private var scalarElement = false
    private var topLevelStart: Int?
    private var sawFeatures = false
    private var line = 1
    private var featureCount = 0

    /// Whether a top-level `features` array was found: with no feature read, an empty
    /// collection rather than input that is not GeoJSON at all.
    package var foundFeatureArray: Bool { sawFeatures }

    package init(source: ByteSource, chunkBytes: Int) {
        reader = BlockReader(source: source, blockBytes: max(65536, chunkBytes / 2))
        self.chunkBytes = chunkBytes
    }

    /// The next features, about `chunkBytes` of them; `nil` at the end.
    package func next() throws(BatchResolveError) -> [FeatureText]? {
        var features: [FeatureText] = []
        var size = 0
        while size < chunkBytes {
            if position >= reader.bytes.count {
                compact()
                if try !reader.readMore() { break }
            }
            if let feature = scanToFeatureEnd() {
                size += feature.bytes.count
                features.append(feature)
            }
        }
        if features.isEmpty, reader.atEnd {
            // A lone Feature at the top level, or a FeatureCollection cut short.
            if !sawFeatures, let start = topLevelStart, depth == 0, start < position {
                topLevelStart = nil
                featureCount += 1
                return [FeatureText(bytes: Array(reader.bytes[start..<position]), index: featureCount, line: 1)]
            }
            if let start = featureStart {
                featureStart = nil
                featureCount += 1
                return [FeatureText(bytes: Array(reader.bytes[start...]), index: featureCount, line: featureLine)]
            }
            return nil
        }
        return features
    }

    /// Drops bytes nothing refers to any more.
    private func compact() {
        let keep = featureStart ?? (sawFeatures ? position : (topLevelStart ?? position))
        let stringKeep = inString ? min(keep, stringStart) : keep
        guard stringKeep > 0 else { return }
        reader.consume(stringKeep)
        position -= stringKeep
        stringStart -= stringKeep
        if featureStart != nil { featureStart! -= stringKeep }
        if topLevelStart != nil { topLevelStart! -= stringKeep }
    }

    /// The element of the features array at `range` as the next feature.
    private func element(_ range: Range<Int>) -> FeatureText {
        featureStart = nil
        featureCount += 1
        return FeatureText(bytes: Array(reader.bytes[range]), index: featureCount, line: featureLine)
    }

    /// White space, a comma or a closing bracket: the end of a bare number or word.
    private static func endsBareValue(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}")
    }

    /// Scans forward; returns a feature when one closes, or nil at the end of the buffer.
    private func scanToFeatureEnd() -> FeatureText? {
        let b = reader.bytes
        while position < b.count {
            let c = b[position]
            // A bare number or word ends at the first byte that cannot belong to it; that byte
            // is then scanned again as itself.
            if scalarElement, !inString, let start = featureStart,
                Self.endsBareValue(c) || c == UInt8(ascii: "{") || c == UInt8(ascii: "[") || c == UInt8(ascii: "\"")
            {
                scalarElement = false
                return element(start..<position)
            }
            defer { position += 1 }
            if c == 0x0A { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 1 { lastKey = Array(b[(stringStart + 1)..<position]) }
                    if depth == 2, inFeatures, scalarElement, let start = featureStart {
                        scalarElement = false
                        return element(start..<(position + 1))
                    }
                }
                continue
            }
            if depth == 2, inFeatures, featureStart == nil, !Self.endsBareValue(c), c != UInt8(ascii: "{"), c != UInt8(ascii: "[") {
                // Any element that is not an object or array: a string or a bare value.
                featureStart = position
                featureLine = line
                scalarElement = true
                if c == UInt8(ascii: "\"") { inString = true; stringStart = position }
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                inString = true
                stringStart = position
            case UInt8(ascii: ":"):
                if depth == 1 { awaitingFeaturesArray = lastKey == Array("features".utf8) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 { topLevelStart = position }
                if depth == 1, c == UInt8(ascii: "["), awaitingFeaturesArray {
                    inFeatures = true
                    sawFeatures = true
                }
                if depth == 2, inFeatures {
                    featureStart = position
                    featureLine = line
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 1 { inFeatures = false; awaitingFeaturesArray = false }
                if depth == 2, inFeatures, let start = featureStart {
                    return element(start..<(position + 1))
                }
            case UInt8(ascii: ","):
                if depth == 1 { awaitingFeaturesArray = false }
            default:
                break
            }
        }
        return nil
    }
}

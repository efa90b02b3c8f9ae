import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One `<item>` of an RSS 2.0 channel, as text.
struct RSSItem: Sendable, Equatable {
    var title = ""
    var link = ""
    var pubDate = ""
    var description = ""
    /// `<source url="…">Publisher</source>`: the text and the `url` attribute.
    var sourceName = ""
    var sourceURL = ""
}

/// Reads the items of an RSS 2.0 document with Foundation's `XMLParser` (libxml2 underneath).
///
/// A feed is at most a few hundred kilobytes, so the body is parsed from memory in one pass;
/// the event-driven parser keeps only the current item's text.
enum RSSFeed {
    /// The channel's items in document order. Throws `HeadlineError.malformedResponse` naming the
    /// line and column of the first XML error, when the body is not UTF-8 (the offset of the
    /// first bad byte), or when the root element is not `<rss>`.
    static func items(from data: Data, provider: NewsProvider) throws -> [RSSItem] {
        // FoundationXML traps on names that are not UTF-8, and Google News sends only UTF-8.
        if let bad = firstInvalidUTF8Offset(data) {
            throw HeadlineError.malformedResponse(provider, detail: "the body is not UTF-8 text (byte \(bad))")
        }
        // FoundationXML reads a NULL pointer for a processing instruction without data (`<?x?>`).
        if let bad = firstEmptyProcessingInstruction(data) {
            throw HeadlineError.malformedResponse(provider, detail: "a processing instruction without data (byte \(bad))")
        }
        let parser = XMLParser(data: data)
        let reader = ItemReader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        // swift-corelibs' parse() can return true after a fatal error (a truncated document),
        // so the error reported to the delegate is what decides.
        let finished = parser.parse()
        if let failure = reader.failure
            ?? (finished ? nil : (parser.lineNumber, parser.columnNumber, (parser.parserError as NSError?)?.code ?? 0))
        {
            throw HeadlineError.malformedResponse(
                provider, detail: "XML error at line \(failure.line), column \(failure.column): \(describe(code: failure.code))")
        }
        if reader.root == nil {
            throw HeadlineError.malformedResponse(provider, detail: "empty document")
        }
        guard reader.root == "rss" else {
            throw HeadlineError.malformedResponse(provider, detail: "expected an <rss> document, found <\(reader.root ?? "")>")
        }
        return reader.items
    }

    /// The offset (from 0) of the first byte that does not continue valid UTF-8, `nil` for valid text.
    private static func firstInvalidUTF8Offset(_ data: Data) -> Int? {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }

    /// The offset of the first `<?name?>` whose data is empty or only white space, `nil` if none.
    private static func firstEmptyProcessingInstruction(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 0
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else { continue }
            var cursor = index + 2
            while cursor < bytes.count, !" \t\r\n?".utf8.contains(bytes[cursor]) { cursor += 1 }
            while cursor < bytes.count, " \t\r\n".utf8.contains(bytes[cursor]) { cursor += 1 }
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "?") { return index }
        }
        return nil
    }

    /// Words for the libxml2 error codes a broken feed produces; "(null)" is all Foundation gives.
    private static func describe(code: Int) -> String {
        switch code {
        case 4: return "empty document"
        case 5: return "document ends too soon"
        case 9, 23, 38, 39, 40, 41, 73: return "a tag is not well-formed"
        case 26: return "undeclared entity"
        case 76: return "closing tag does not match the open one"
        default: return "libxml2 error \(code)"
        }
    }
}

private final class ItemReader: NSObject, XMLParserDelegate {
    private(set) var root: String?
    /// Line, column and code of the first fatal error.
    private(set) var failure: (line: Int, column: Int, code: Int)?
    private(set) var items: [RSSItem] = []
    private var current: RSSItem?
    private var field: String?
    private var text = ""

    private static let fields: Set<String> = ["title", "link", "pubDate", "description", "source"]

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        if root == nil { root = name }
        if name == "item" {
            current = RSSItem()
        } else if current != nil, field == nil, Self.fields.contains(name) {
            field = name
            text = ""
            if name == "source" { current?.sourceURL = attributes["url"] ?? "" }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil { failure = (parser.lineNumber, parser.columnNumber, (parseError as NSError).code) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if field != nil { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if field != nil { text += String(decoding: block, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "item", let item = current {
            items.append(item)
            current = nil
        } else if name == field {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "title": current?.title = value
            case "link": current?.link = value
            case "pubDate": current?.pubDate = value
            case "description": current?.description = value
            case "source": current?.sourceName = value
            default: break
            }
            field = nil
        }
    }
}

import Foundation

/// GDELT DOC 2.0's `mode=artlist&format=json` answer and its quirks on the wire.
///
/// `{"articles": [{"url", "url_mobile", "title", "seendate": "20240501T093000Z", "socialimage",
/// "domain", "language": "French", "sourcecountry": "France"}]}`; `{}` when nothing matched.
/// GDELT also answers, with status 200, a short text or HTML page when it refuses a query
/// ("The specified phrase is too short.") or is shedding load ("Please limit requests to one
/// every 5 seconds…", which it sends with 429 too), and now and then JSON whose strings hold
/// escapes JSON does not have (`\'`, `\x`) or raw control characters.
enum GDELTWire {
    struct Articles: Decodable {
        var articles: [WireArticle]?
    }

    struct WireArticle: Decodable {
        var url: String?
        var title: String?
        var seendate: String?
        var socialimage: String?
        var domain: String?
        var language: String?
        var sourcecountry: String?
    }

    /// The articles of a 2xx answer. Throws `.rateLimited` for a load-shedding notice (any
    /// status), `.refused` with the page's text for any other text or HTML page, the usual
    /// status errors otherwise, and `.malformedResponse` for JSON that stays unreadable after
    /// `repairingEscapes`.
    static func decode(_ response: HTTPResponse) throws -> [WireArticle] {
        let body = response.body
        let looksLikeJSON = body.first(where: { !isSpace($0) }).map { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") } ?? true
        if !looksLikeJSON || (response.headers["content-type"] ?? "").contains("text/html") {
            let text = pageText(body)
            if text.lowercased().contains("limit requests") {
                throw HeadlineError.rateLimited(.gdelt, retryAfter: response.retryAfter(), message: text)
            }
            guard response.isSuccess else { throw response.failure(.gdelt, key: nil, message: text.isEmpty ? nil : text) }
            throw HeadlineError.refused(.gdelt, message: text.isEmpty ? "an empty page instead of JSON" : text)
        }
        guard response.isSuccess else { throw response.failure(.gdelt, key: nil) }
        if body.allSatisfy(isSpace) { return [] }
        if let answer = try? JSONDecoder().decode(Articles.self, from: body) { return answer.articles ?? [] }
        return try JSONBody.decode(Articles.self, from: repairingEscapes(body), provider: .gdelt).articles ?? []
    }

    /// `body` with what JSON forbids inside strings mended: `\xHH` becomes `\u00HH`, a backslash
    /// before any other character that starts no JSON escape (or `\u` without four hex digits)
    /// is dropped, and raw control characters become spaces. Bytes outside strings are left alone.
    static func repairingEscapes(_ body: Data) -> Data {
        let bytes = [UInt8](body)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if !inString {
                if byte == UInt8(ascii: "\"") { inString = true }
                out.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                out.append(byte)
            } else if byte < 0x20 {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "\\") {
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                if validEscape(bytes, at: index) {
                    out.append(byte)
                    out.append(next)
                    index += 2
                    continue
                }
                if next == UInt8(ascii: "x"), index + 3 < bytes.count, isHex(bytes[index + 2]), isHex(bytes[index + 3]) {
                    out += Array("\\u00".utf8) + [bytes[index + 2], bytes[index + 3]]
                    index += 4
                    continue
                }
                // Dropped: the character after it is kept as itself.
            } else {
                out.append(byte)
            }
            index += 1
        }
        return Data(out)
    }

    private static func validEscape(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + 1 < bytes.count else { return false }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard index + 5 < bytes.count else { return false }
            return bytes[(index + 2)...(index + 5)].allSatisfy { isHex($0) }
        default:
            return false
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The readable text of a text or HTML page, tags, scripts and styles removed, spaces
    /// collapsed, at most 200 characters.
    static func pageText(_ body: Data) -> String {
        var html = String(decoding: body.prefix(20_000), as: UTF8.self)
        for element in ["script", "style"] {
            while let open = html.range(of: "<\(element)", options: .caseInsensitive),
                let close = html.range(of: "</\(element)>", options: .caseInsensitive, range: open.upperBound..<html.endIndex)
            {
                html.removeSubrange(open.lowerBound..<close.upperBound)
            }
        }
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true; text.append(" ")
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&nbsp;": " "]
        for (entity, character) in entities { text = text.replacingOccurrences(of: entity, with: character) }
        let words = text.split(whereSeparator: { $0.isWhitespace })
        let line = words.joined(separator: " ")
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}

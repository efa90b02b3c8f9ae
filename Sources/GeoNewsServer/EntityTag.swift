import Foundation
import Hummingbird

/// Strong ETags for answers that depend only on their inputs, and the 304 that
/// `If-None-Match` earns.
enum EntityTag {
    /// A quoted tag: FNV-1a (64-bit) over the parts, which name the dataset version and the
    /// query as understood.
    static func of(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// 304 when the request's `If-None-Match` lists `tag` (or is `*`), else 200 with `body()`,
    /// kept in `cache` under `tag`.
    static func respond(to request: Request, tag: String, cache: AnswerCache, body: () throws -> String) throws -> Response {
        try respond(to: request, tag: tag, contentType: "application/geo+json", cache: cache) { ByteBuffer(string: try body()) }
    }

    /// 304 when the request's `If-None-Match` lists `tag` (or is `*`), else 200 with `body()`
    /// as `contentType`, kept in `cache` under `tag`.
    static func respond(to request: Request, tag: String, contentType: String, cache: AnswerCache,
                        body: () throws -> ByteBuffer) throws -> Response {
        let headers = headers(tag: tag)
        if let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { let t = $0.trimmingCharacters(in: .whitespaces); return t == tag || t == "*" || t == "W/" + tag }) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: Self.headers(tag: tag, contentType: contentType),
                        body: .init(byteBuffer: try cache.answer(tag, encode: body)))
    }

    /// The headers of an answer with this tag: the tag and a minute's caching, and the content
    /// type of a 200.
    static func headers(tag: String, contentType: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.eTag: tag, .cacheControl: "public, max-age=60"]
        if let contentType { fields[.contentType] = contentType }
        return fields
    }
}

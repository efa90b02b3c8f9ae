import Foundation
import Hummingbird

/// Strong ETags for answers that depend only on their inputs, and the 304 that
/// `If-None-Match` earns.
enum EntityTag {
    /// A quoted tag: FNV-1a (64-bit) over the parts, which name the dataset version and the
    /// query as understood.
    static func of(_ parts: [String]) -> String {
        of(bytes: parts.joined(separator: "\u{1F}").utf8)
    }

    /// A quoted tag: FNV-1a (64-bit) over an answer's bytes, for answers whose inputs are
    /// more than the query (a resolution also depends on the hour: its UTC offset).
    static func of(bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
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
    /// as `contentType`, kept in `cache` under `tag`, gzipped when the client accepts it.
    static func respond(
        to request: Request, tag: String, contentType: String, cache: AnswerCache,
        body: () throws -> ByteBuffer
    ) throws -> Response {
        try answer(to: request.headers, tag: tag, contentType: contentType, cache: cache, body: body).response
    }

    /// The answer to a request with these header fields: 304 when its `If-None-Match` lists
    /// `tag` or the tag of its gzip form (or is `*`), else 200 with `body()` as
    /// `contentType` (kept in `cache` under `tag` when given) and ``AnswerEncoding``'s gzip.
    static func answer(
        to fields: HTTPFields, tag: String, contentType: String, cache: AnswerCache?,
        extraHeaders: HTTPFields = [:], body: () throws -> ByteBuffer
    ) throws -> PlainAnswer {
        let gzip = AnswerEncoding.acceptsGzip(fields)
        if let matched = matching(fields[.ifNoneMatch], tag: tag) {
            return notModified(tag: matched, contentType: contentType, extraHeaders: extraHeaders)
        }
        var headers = headers(tag: tag, contentType: contentType)
        for field in extraHeaders { headers[field.name] = field.value }
        let plain = PlainAnswer(headers: headers, body: try cache.map { try $0.answer(tag, encode: body) } ?? body())
        return AnswerEncoding.encode(plain, acceptsGzip: gzip, cache: cache)
    }

    /// The 304 for a request whose `If-None-Match` named `tag` (the plain tag or its gzip
    /// form) of an answer of `contentType`.
    static func notModified(tag: String, contentType: String, extraHeaders: HTTPFields = [:]) -> PlainAnswer {
        var headers = headers(tag: tag)
        for field in extraHeaders { headers[field.name] = field.value }
        if AnswerEncoding.compressedTypes.contains(contentType) { headers[.vary] = "Accept-Encoding" }
        return PlainAnswer(status: .notModified, headers: headers, body: ByteBuffer())
    }

    /// The tag in `ifNoneMatch` that `tag` or its gzip form matches (`*` matches the plain
    /// one), or `nil`. A weak `W/` prefix is ignored, as RFC 9110's weak comparison does.
    static func matching(_ ifNoneMatch: String?, tag: String) -> String? {
        guard let ifNoneMatch else { return nil }
        let gzip = AnswerEncoding.gzipTag(tag)
        for item in ifNoneMatch.split(separator: ",") {
            var t = item.trimmingCharacters(in: .whitespaces)
            if t == "*" { return tag }
            if t.hasPrefix("W/") { t.removeFirst(2) }
            if t == tag || t == gzip { return t }
        }
        return nil
    }

    /// The headers of an answer with this tag: the tag and a minute's caching, and the content
    /// type of a 200.
    static func headers(tag: String, contentType: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.eTag: tag, .cacheControl: "public, max-age=60"]
        if let contentType { fields[.contentType] = contentType }
        return fields
    }
}

import CZlib
import Hummingbird

/// gzip for the JSON, GeoJSON and vector tile answers built per request, when the client's
/// `Accept-Encoding` allows it. Every answer of these types says `Vary: Accept-Encoding`;
/// a compressed one has `Content-Encoding: gzip` and, since a strong tag names one
/// representation, its ETag with `-gzip` added inside the quotes.
///
/// Streamed answers (the batch `POST /v1/resolve`) are sent as they are written, not
/// compressed.
enum AnswerEncoding {
    /// Answers smaller than this go out plain: they fit in one TCP segment either way, so
    /// compressing them would cost time (about 20 µs) and save no round trip. A resolution
    /// (about 400 bytes) stays plain; a cluster answer at 15,000 km (6.8 KB) is compressed.
    static let minimumBytes = 1400

    /// The content types compressed: text formats, and vector tiles (protobuf whose repeated
    /// keys and values shrink to about a third).
    static let compressedTypes: Set<String> = [
        "application/json", "application/geo+json", "application/problem+json", "application/vnd.mapbox-vector-tile",
    ]

    /// Whether a request with these fields accepts gzip: its `Accept-Encoding` lists gzip (or
    /// `*`) with a non-zero quality.
    static func acceptsGzip(_ fields: HTTPFields) -> Bool {
        for item in fields[values: .acceptEncoding].joined(separator: ",").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }

    /// The gzip form of `bytes` at `level`, or `nil` when it is no smaller (or zlib failed): the
    /// one compression of the server, for answers built per request and files kept whole.
    static func gzip(_ bytes: [UInt8], level: Int32 = Z_BEST_COMPRESSION) -> ByteBuffer? {
        Gzip.compress(bytes, level: level).flatMap { $0.count < bytes.count ? ByteBuffer(bytes: $0) : nil }
    }

    /// `answer` as it goes to a client that accepts gzip or not: unchanged unless it is a 200
    /// of a compressed type; then with `Vary`, and gzipped when accepted and at least
    /// ``minimumBytes``. With `cache`, the gzip form is kept under its own tag.
    static func encode(_ answer: PlainAnswer, acceptsGzip: Bool, cache: AnswerCache? = nil) -> PlainAnswer {
        guard answer.status == .ok, answer.headers[.contentEncoding] == nil,
            let type = answer.headers[.contentType], compressedTypes.contains(type)
        else { return answer }
        var encoded = answer
        encoded.headers[.vary] = "Accept-Encoding"
        guard acceptsGzip, answer.body.readableBytes >= minimumBytes else { return encoded }
        let tag = answer.headers[.eTag].map(gzipTag)
        let compress = { () -> ByteBuffer? in gzip(Array(answer.body.readableBytesView), level: Z_DEFAULT_COMPRESSION) }
        let body: ByteBuffer?
        if let tag, let cache {
            body = cache.answer(tag) { compress() ?? ByteBuffer() }
        } else {
            body = compress()
        }
        guard let body, body.readableBytes > 0, body.readableBytes < answer.body.readableBytes else { return encoded }
        encoded.headers[.contentEncoding] = "gzip"
        if let tag { encoded.headers[.eTag] = tag }
        encoded.body = body
        return encoded
    }

    /// The tag of an answer's gzip form: `"abc"` becomes `"abc-gzip"`.
    static func gzipTag(_ tag: String) -> String {
        tag.hasSuffix("\"") ? String(tag.dropLast()) + "-gzip\"" : tag + "-gzip"
    }
}

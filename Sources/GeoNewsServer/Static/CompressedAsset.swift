import Crypto
import Hummingbird

/// A file answered from memory: read at start and gzip-compressed once, at the first request
/// that accepts gzip, with a strong ETag per representation, 304 to a matching
/// `If-None-Match`, and gzip to clients that accept it.
struct CompressedAsset: Sendable {
    let contentType: String
    let cacheControl: String
    let plain: ByteBuffer
    /// The gzip form, made at zlib's best compression when first asked for: a server that is
    /// never asked for the file never compresses it, and none of its files delays the start
    /// (the base map, the page and Leaflet took 0.45 s of CPU at every start when they were
    /// compressed there).
    private let gzipForm = MadeOnce<ByteBuffer?>()
    /// The SHA-256 prefix of the file, quoted in its ETag; the gzip form adds `-gzip`, because
    /// a strong tag names one representation.
    let tag: String

    init(bytes: [UInt8], contentType: String, cacheControl: String) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        plain = ByteBuffer(bytes: bytes)
        tag = SHA256.hash(data: bytes).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// The gzip form, `nil` when compressing does not make the file smaller (or zlib failed);
    /// made by the first call.
    var gzipped: ByteBuffer? { gzipForm.value { AnswerEncoding.gzip(Array(plain.readableBytesView)) } }

    /// 200 with the plain or gzip form, or 304 when `If-None-Match` names either form: the
    /// answers' own rules (``EntityTag/matching(_:tag:)``, ``AnswerEncoding/gzipTag(_:)``,
    /// ``AnswerEncoding/acceptsGzip(_:)``), with the file's form made once instead of per answer.
    func response(to request: Request) -> Response {
        let quoted = "\"" + tag + "\""
        var headers: HTTPFields = [.cacheControl: cacheControl, .vary: "Accept-Encoding"]
        if let matched = EntityTag.matching(request.headers[.ifNoneMatch], tag: quoted) {
            headers[.eTag] = matched
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        if AnswerEncoding.acceptsGzip(request.headers), let gzipped {
            headers[.eTag] = AnswerEncoding.gzipTag(quoted)
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzipped))
        }
        headers[.eTag] = quoted
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: plain))
    }
}

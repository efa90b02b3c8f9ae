import Crypto
import Hummingbird
import Synchronization

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
    private let gzipForm = GzipForm()
    /// The quoted SHA-256 prefix of the file; the gzip form adds `-gzip`, because a strong
    /// tag names one representation.
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
    var gzipped: ByteBuffer? { gzipForm.value(of: plain) }

    /// 200 with the plain or gzip form, or 304 when `If-None-Match` names the form chosen.
    func response(to request: Request) -> Response {
        let gzipped = Self.acceptsGzip(request.headers[values: .acceptEncoding]) ? self.gzipped : nil
        let gzip = gzipped != nil
        let etag = "\"" + tag + (gzip ? "-gzip" : "") + "\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: cacheControl, .vary: "Accept-Encoding"]
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: {
                let candidate = $0.trimmingCharacters(in: .whitespaces)
                return candidate == etag || candidate == "W/" + etag || candidate == "*"
            })
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        if gzip, let gzipped {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: plain))
    }

    /// Whether `Accept-Encoding` lists gzip (or `*`) with a non-zero quality.
    static func acceptsGzip(_ values: [String]) -> Bool {
        for item in values.joined(separator: ",").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            let refused = quality <= 0
            if !refused { return true }
        }
        return false
    }
}

/// A file's gzip form, made once by the first caller; callers that come while it is being made
/// wait for it (a bounded compression, never a client).
private final class GzipForm: Sendable {
    /// `nil` until made; then the form, or `.some(nil)` when it is not smaller than the file.
    private let made = Mutex<ByteBuffer??>(nil)

    func value(of plain: ByteBuffer) -> ByteBuffer? {
        made.withLock { made in
            if let form = made { return form }
            let bytes = Array(plain.readableBytesView)
            let form = Gzip.compress(bytes).flatMap { $0.count < bytes.count ? ByteBuffer(bytes: $0) : nil }
            made = .some(form)
            return form
        }
    }
}

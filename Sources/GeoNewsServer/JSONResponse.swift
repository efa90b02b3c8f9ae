import Foundation
import Hummingbird

/// Responses with a JSON body already encoded.
enum JSONResponse {
    static func make(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    static func make(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        make(Data(text.utf8), status: status, headers: headers)
    }

    /// `value` encoded with sorted keys and unescaped slashes.
    static func encode(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return make(try encoder.encode(value), status: status, headers: headers)
    }
}

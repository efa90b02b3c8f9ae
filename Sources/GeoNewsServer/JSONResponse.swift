import Foundation
import Hummingbird

/// Responses with a JSON body already encoded.
enum JSONResponse {
    static func make(_ body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    static func make(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        make(ByteBuffer(data: data), status: status, headers: headers)
    }

    static func make(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        make(ByteBuffer(bytes: bytes), status: status, headers: headers)
    }

    static func make(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        make(ByteBuffer(string: text), status: status, headers: headers)
    }

    /// `value` encoded with sorted keys and unescaped slashes.
    static func encode(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return make(try encoder.encode(value), status: status, headers: headers)
    }
}

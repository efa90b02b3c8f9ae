import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// The whole body, refusing with 413 past `limit` bytes: at once when the declared
    /// `Content-Length` says so, else once that many have arrived.
    func collectBody(upTo limit: Int) async throws -> ByteBuffer {
        func tooLarge() -> Problem {
            Problem(.contentTooLarge, detail: "the request body is larger than the limit of \(limit) bytes for \(method) \(uri.path)")
        }
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge() }
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge()
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge()
        }
    }

    /// Refuses with 415 unless the body's media type is one of `accepted` (parameters such
    /// as `charset` ignored).
    func requireContentType(_ accepted: [String]) throws {
        _ = try bodyFormat(accepted.map { ($0, ()) })
    }

    /// The value `formats` pairs with the body's media type (parameters such as `charset`
    /// ignored), or 415 naming the type given and the types accepted.
    func bodyFormat<Format>(_ formats: [(mediaType: String, format: Format)]) throws -> Format {
        let given = headers[.contentType] ?? ""
        let mediaType = given.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let format = formats.first(where: { $0.mediaType == mediaType })?.format else {
            let accepted = formats.map(\.mediaType)
            throw Problem(
                .unsupportedMediaType,
                detail: "Content-Type '\(given)' is not accepted on \(uri.path); send \(accepted.joined(separator: " or "))",
                headers: [.accept: accepted.joined(separator: ", ")])
        }
        return format
    }

    /// The body as JSON of type `T`, with 415 for another Content-Type and 400 naming the
    /// first field that does not decode.
    func decodeJSON<T: Decodable>(_ type: T.Type, limit: Int) async throws -> T {
        try requireContentType(["application/json"])
        let buffer = try await collectBody(upTo: limit)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let DecodingError.keyNotFound(key, _) {
            throw Problem.badValue(key.stringValue, "the field is required")
        } catch let DecodingError.typeMismatch(_, context) {
            throw Problem.badValue(
                context.codingPath.map(\.stringValue).joined(separator: "."), "has the wrong type: \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw Problem.badValue(context.codingPath.map(\.stringValue).joined(separator: "."), "must not be null")
        } catch {
            throw Problem(.badRequest, title: "Malformed JSON", detail: "the request body is not valid JSON")
        }
    }
}

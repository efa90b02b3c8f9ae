import Foundation

/// Decoding of provider JSON with errors that name the failing field.
enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, provider: NewsProvider) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw HeadlineError.malformedResponse(provider, detail: describe(error))
        } catch {
            throw HeadlineError.malformedResponse(provider, detail: "not JSON")
        }
    }

    /// A data file decoded as `type`; unreadable or undecodable files throw `fault(detail)`,
    /// the detail naming the failing field.
    static func decodeFile<T: Decodable>(_ type: T.Type, at url: URL, fault: (String) -> HeadlineError) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw fault(describe(error))
        } catch {
            throw fault("cannot be read")
        }
    }

    /// "invalid JSON" or "field articles[2].url: missing", from a `DecodingError`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.reduce("") { text, key in
                key.intValue.map { "\(text)[\($0)]" } ?? (text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)")
            }
            return text.isEmpty ? "top level" : "field \(text)"
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "invalid JSON"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): unreadable value"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): null where \(type) was expected"
        @unknown default:
            return "unreadable JSON"
        }
    }
}

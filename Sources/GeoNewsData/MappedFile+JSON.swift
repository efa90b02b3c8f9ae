#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MappedFile {
    /// The file decoded as JSON; a file that does not decode is ``DataError/corrupt(path:reason:)``.
    package func decodeJSON<T: Decodable>(_ type: T.Type) throws(DataError) -> T {
        let data = withExtendedLifetime(self) { Data(bytes) }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
    }
}

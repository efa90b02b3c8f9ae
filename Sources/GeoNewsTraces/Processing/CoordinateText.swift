import GeoNewsGeodesy

/// Turns the text of a latitude and a longitude into a checked ``Coordinate``, or a reason.
enum CoordinateText {
    @inline(__always)
    static func coordinate(
        latitude: UnsafeBufferPointer<UInt8>, longitude: UnsafeBufferPointer<UInt8>
    ) -> Result<Coordinate, ReasonText> {
        if let (lat, lon) = DecimalParser.parsePlainPair(latitude, longitude),
            let position = try? Coordinate.validated(latitude: lat, longitude: lon)
        {
            return .success(position)
        }
        guard let lat = DecimalParser.parse(latitude) else { return .failure(notANumber("latitude", latitude)) }
        guard let lon = DecimalParser.parse(longitude) else { return .failure(notANumber("longitude", longitude)) }
        do {
            return .success(try Coordinate.validated(latitude: lat, longitude: lon))
        } catch {
            return .failure(ReasonText(error.description))
        }
    }

    /// ``coordinate(latitude:longitude:)``'s position, or `nil` for any failure (whose reason
    /// that function then tells): no `Result` to build for a row that resolves.
    @inline(__always)
    static func plainCoordinate(latitude: UnsafeBufferPointer<UInt8>, longitude: UnsafeBufferPointer<UInt8>) -> Coordinate? {
        if let (lat, lon) = DecimalParser.parsePlainPair(latitude, longitude) {
            // Coordinate.validated's checks, without building its error.
            guard lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
        guard case .success(let position) = coordinate(latitude: latitude, longitude: longitude) else { return nil }
        return position
    }

    static func notANumber(_ field: String, _ bytes: UnsafeBufferPointer<UInt8>) -> ReasonText {
        let trimmed = ASCIIText.trimmed(bytes)
        if trimmed.isEmpty { return ReasonText("\(field) is empty") }
        let shown = String(decoding: UnsafeBufferPointer(rebasing: trimmed.prefix(40)), as: UTF8.self)
        return ReasonText("\(field) \"\(shown)\" is not a number")
    }
}

/// A reason a record failed, before the line number is put in front of it.
struct ReasonText: Error {
    let text: String
    init(_ text: String) { self.text = text }
}

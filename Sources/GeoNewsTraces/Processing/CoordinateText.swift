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

import GeoNewsGeodesy
import GeoNewsPoints
import GeoNewsTraces

/// Point files over fuzzed bytes: the result does not depend on where the input is cut into
/// chunks, every point is a valid position with an id, and a refusal names the input and the
/// line or feature.
enum PointFileProperties {
    static func check(_ input: [UInt8]) {
        let whole = outcome([input])
        // Cut where the first byte says, and also into single bytes for short inputs.
        let cut = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
        let halves = outcome([Array(input[..<cut]), Array(input[cut...])])
        if halves != whole { violated("points: cutting the upload at byte \(cut) changed the result: \(whole) vs \(halves)") }
        if input.count <= 64, outcome(input.map { [$0] }) != whole { violated("points: byte-sized chunks changed the result") }
        switch whole {
        case .read(let count, let ids):
            if ids != count { violated("points: \(count) points but \(ids) ids") }
        case .refused(let message):
            guard message.hasPrefix("upload") else { violated("points: a refusal that does not name the input: \(message)") }
            guard message.contains(" line ") || message.contains(": feature ") || message.contains("JSON") else {
                violated("points: a refusal that names no line or feature: \(message)")
            }
        }
    }

    private enum Outcome: Equatable {
        case read(count: Int, ids: Int)
        case refused(String)
    }

    private static func outcome(_ chunks: [[UInt8]]) -> Outcome {
        do {
            let points = try PointFile.read(chunks: chunks, name: "upload")
            for c in points.coordinates
            where !(c.latitude.isFinite && abs(c.latitude) <= 90 && c.longitude.isFinite && abs(c.longitude) <= 180) {
                violated("points: an invalid position came through: \(c)")
            }
            if points.names.count != points.coordinates.count { violated("points: names and points differ in number") }
            return .read(count: points.coordinates.count, ids: points.ids.count)
        } catch {
            return .refused(error.description)
        }
    }
}

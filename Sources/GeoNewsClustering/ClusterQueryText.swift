import GeoNewsGeodesy

/// The text forms of a cluster query's arguments, as a user types them on a command line or
/// in a query string: a box `W,S,E,N`, a centre `LAT,LON`, a viewport `WIDTHxHEIGHT` and a
/// zoom. Each parser returns a typed error that quotes the text as given.
public enum ClusterQueryText {
    /// The largest longitude a box may give, in degrees either way: a hundred world copies
    /// from the first, further than a map client pans in practice.
    public static let longitudeLimit = 36_000
    /// The sides a viewport may have, in points: from one point to 100,000 (a wall of 8K
    /// screens is 30,000 wide).
    public static let viewportSide: ClosedRange<Int> = 1...100_000
    /// The zooms a query may give. Below −32 the whole world is a speck of 2^−32 tiles; above
    /// ``ClusterOptions/highestZoom`` + 1 no index has a level. Within these, and with a
    /// viewport within ``viewportSide``, a view's box in degrees stays finite.
    public static let zoomRange: ClosedRange<Int> = -32...(ClusterOptions.highestZoom + 1)

    /// A box `W,S,E,N` in degrees, e.g. `-180,-90,180,90` or `170,-20,-170,20` (west > east
    /// crosses the antimeridian). Spaces around the numbers are ignored; south must not be
    /// north of north, and both within -90…90. Longitudes may lie on a world copy (a map
    /// client panned east or west, `520,-50,550,-30`), up to ``longitudeLimit``:
    /// ``ClusterIndex/clusters(in:zoom:)`` wraps them.
    public static func bounds(_ text: String) throws(ClusterQueryError) -> ClusterIndex.Bounds {
        let parts = text.split(separator: ",").map { Double($0.trimmingWhitespace()) }
        guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3],
            [w, s, e, n].allSatisfy(\.isFinite)
        else {
            throw .boundsNotFourNumbers(text: text)
        }
        guard [s, n].allSatisfy((-90...90).contains), [w, e].allSatisfy({ abs($0) <= Double(longitudeLimit) }) else {
            throw .boundsOutOfRange(text: text)
        }
        guard s <= n else { throw .boundsSouthAboveNorth(text: text, south: s, north: n) }
        return ClusterIndex.Bounds(west: w, south: s, east: e, north: n)
    }

    /// A view centre `LAT,LON` in degrees, e.g. `-33.8,151.2`; ranges as
    /// ``GeoNewsGeodesy/Coordinate/init(parsingLatitude:longitude:)`` checks them.
    public static func center(_ text: String) throws(ClusterQueryError) -> Coordinate {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .center(text: text, reason: nil) }
        do {
            return try Coordinate(parsingLatitude: String(parts[0]), longitude: String(parts[1]))
        } catch {
            throw .center(text: text, reason: error)
        }
    }

    /// A viewport `WIDTHxHEIGHT` in points, each within ``viewportSide`` (1…100,000), e.g.
    /// `390x844` (`X` also accepted).
    public static func viewport(_ text: String) throws(ClusterQueryError) -> (width: Double, height: Double) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw .viewport(text: text)
        }
        guard [w, h].allSatisfy(Self.within(viewportSide)) else { throw .viewportOutOfRange(text: text) }
        return (w, h)
    }

    /// A zoom level within ``zoomRange`` (−32…255), fractional allowed (a query uses level
    /// `floor(zoom)`).
    public static func zoom(_ text: String) throws(ClusterQueryError) -> Double {
        guard let z = Double(text), z.isFinite else { throw .zoom(text: text) }
        guard Self.within(zoomRange)(z) else { throw .zoomOutOfRange(text: text) }
        return z
    }

    /// Whether a number lies within whole-number limits, compared as Doubles (never the
    /// other way round: the number may be far beyond `Int`).
    public static func within(_ limits: ClosedRange<Int>) -> (Double) -> Bool {
        { Double(limits.lowerBound) <= $0 && $0 <= Double(limits.upperBound) }
    }
}

/// Why the text of a cluster query argument is not usable; each message quotes the text.
public enum ClusterQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `bbox '1,2,3' is not four numbers W,S,E,N`.
    case boundsNotFourNumbers(text: String)
    /// `bbox '0,10,1,5': south 10.0 is north of north 5.0`.
    case boundsSouthAboveNorth(text: String, south: Double, north: Double)
    /// A latitude outside -90…90 or a longitude beyond ±``ClusterQueryText/longitudeLimit``.
    case boundsOutOfRange(text: String)
    /// `center '91,0': latitude 91 is outside -90…90`; `reason` is nil when it is not two
    /// comma-separated parts.
    case center(text: String, reason: CoordinateInputError?)
    /// `viewport '0x10' is not WIDTHxHEIGHT in points, e.g. 390x844`.
    case viewport(text: String)
    /// A side outside ``ClusterQueryText/viewportSide``.
    case viewportOutOfRange(text: String)
    /// `zoom 'abc' is not a number`.
    case zoom(text: String)
    /// A zoom outside ``ClusterQueryText/zoomRange``.
    case zoomOutOfRange(text: String)
    /// Both a zoom and an altitude were given.
    case zoomAndAltitude
    /// Neither a zoom nor an altitude was given.
    case noZoom
    /// `tile size 300 is not 512 or 256`.
    case tileSize(Int)
    /// The altitude's own message (`altitude '-5km' …`).
    case altitude(CameraAltitudeError)

    public var description: String {
        switch self {
        case .boundsNotFourNumbers(let text): return "bbox '\(text)' is not four numbers W,S,E,N"
        case .boundsSouthAboveNorth(let text, let south, let north): return "bbox '\(text)': south \(south) is north of north \(north)"
        case .boundsOutOfRange(let text):
            return "bbox '\(text)': latitudes must be within -90…90 and longitudes within ±\(ClusterQueryText.longitudeLimit)"
        case .center(let text, nil): return "center '\(text)' is not LAT,LON"
        case .center(let text, let reason?): return "center '\(text)': \(reason)"
        case .viewport(let text): return "viewport '\(text)' is not WIDTHxHEIGHT in points, e.g. 390x844"
        case .viewportOutOfRange(let text):
            return
                "viewport '\(text)': width and height must be within \(ClusterQueryText.viewportSide.lowerBound)…\(ClusterQueryText.viewportSide.upperBound) points"
        case .zoom(let text): return "zoom '\(text)' is not a number"
        case .zoomOutOfRange(let text):
            return "zoom '\(text)' is outside \(ClusterQueryText.zoomRange.lowerBound)…\(ClusterQueryText.zoomRange.upperBound)"
        case .zoomAndAltitude: return "give a zoom or an altitude, not both"
        case .noZoom: return "give an altitude (e.g. 15000km) or a zoom"
        case .tileSize(let size): return "tile size \(size) is not 512 or 256"
        case .altitude(let error): return error.description
        }
    }
}

import GeoNewsBoundaries

extension CountryAreaSplitter {
    /// What the splitter decided for one piece of a zone, for the build report.
    public struct Decision: Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// Another country's land, large and not just its border strayed: that country's.
            case share
            /// Another country's land too small, or along its land beyond the zone: the zone country's.
            case sliver
            /// A leftover part (sea off a share, a sliver beside it) that joins a share.
            case adopted
            /// The zone's own country came from overlap, `zone.tab`'s is not in Natural Earth.
            case countryByOverlap = "country-by-overlap"
            /// Another, smaller zone lies over part of this one (at least ``minimumAreaKm2``) and
            /// keeps that part (`country` names the zone here, `shape` is the overlap).
            case yields
            /// A part of the zone with no Natural Earth land, drawn around land it lacks: the
            /// country whose land in the zone lies nearest.
            case unmappedLand = "unmapped-land"
        }
        public let zone: String
        public let zoneCountry: String?
        public let country: String?
        public var kind: Kind
        public let shape: Shape
        /// Fraction of the piece within the margin of its country's land beyond the zone (0 when not measured).
        public var nearFraction = 0.0

        public var description: String {
            func r(_ x: Double, _ scale: Double) -> Double { (x * scale).rounded() / scale }
            return "\(zone) [\(zoneCountry ?? "ocean")] \(kind.rawValue) \(country ?? "-"): \(r(shape.areaKm2, 10)) km², "
                + "mean width \(r(shape.meanWidthKm, 100)) km, near its land beyond \(r(nearFraction, 1000))"
        }
    }
}

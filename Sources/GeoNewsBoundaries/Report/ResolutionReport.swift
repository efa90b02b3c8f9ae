import GeoNewsJSON
import GeoNewsTimeZones

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON form of a ``Resolution``: what `geonews --json` prints and what an HTTP resolve
/// answer carries. The keys are the documented interface and stay.
///
/// ```json
/// {"borderDistanceKm":…,
///  "country":{"continent":"Europe","id":"FRA","iso2":"FR","iso3":"FRA","name":"France","sovereign":"France"},
///  "nearest":null,"position":{"lat":48.8566,"lon":2.3522},
///  "suggestion":{"distanceKm":0,"explanation":"the position is inside it","iso2":"FR","name":"France","reason":"inside"},
///  "timeZone":"Europe/Paris","utcOffset":"+01:00","utcOffsetSeconds":3600}
/// ```
///
/// `country` is the country whose land or territorial sea holds the position, `null` beyond
/// every territorial sea; `nearest` is `null` inside a country (both are written, never left
/// out). `timeZone` is the IANA zone, `Etc/GMT±N` on the open ocean; `utcOffset` (`±hh:mm`) and
/// `utcOffsetSeconds` are its offset at the moment of the answer, daylight saving time
/// included; `borderDistanceKm` is the distance to the nearest edge of the country's area.
/// Each of these four is `null` when unknown. `headlines` is written only when set, and `place`
/// only when the caller looked one up (``withPlace(_:)``): the nearest populated place,
/// `{"distanceKm":2.1,"geonameId":2996944,"name":"Lyon","population":522969}`, or `null` where
/// there is none. Kilometres are rounded to the metre.
public struct ResolutionReport: Encodable, Sendable {
    /// The position asked about, in degrees.
    public struct Position: Encodable, Sendable { public let lat: Double; public let lon: Double }
    /// The containing country or territory.
    public struct Place: Encodable, Sendable {
        public let id: String
        public let iso2: String?
        public let iso3: String?
        public let name: String
        public let sovereign: String
        public let continent: String
    }
    /// The nearest land at sea, with its great-circle distance in kilometres.
    public struct Nearest: Encodable, Sendable {
        public let iso2: String?
        public let name: String
        public let distanceKm: Double
    }
    /// The suggested news country, why, and the distance in kilometres that reason uses.
    public struct SuggestionReport: Encodable, Sendable {
        public let iso2: String?
        public let name: String
        public let reason: String
        public let distanceKm: Double
        public let explanation: String
    }

    /// The nearest populated place (``NearestPlace``): GeoNames' name, id and population, and
    /// the great-circle distance in kilometres.
    public struct PlaceReport: Encodable, Sendable {
        public let name: String
        public let geonameId: UInt32
        public let population: UInt32
        public let distanceKm: Double
    }

    /// The region that holds the position (``RegionAnswer``): ISO 3166-2 code (`null` where there
    /// is none), GeoNames admin1 code, name, whether the position lies inside its polygons, and
    /// the finer Natural Earth unit where there is one.
    public struct RegionReport: Encodable, Sendable {
        /// A Natural Earth unit finer than the region (a French department).
        public struct SubregionReport: Encodable, Sendable {
            public let name: String
            public let iso3166Code: String?
            private enum CodingKeys: String, CodingKey {
                case name
                case iso3166Code = "iso3166_2"
            }
            public func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(name, forKey: .name)
                try c.encode(iso3166Code, forKey: .iso3166Code)
            }
        }
        public let iso3166Code: String?
        public let geonamesAdmin1: String
        public let name: String
        public let inside: Bool
        public let subregion: SubregionReport?
        private enum CodingKeys: String, CodingKey {
            case geonamesAdmin1, name, inside, subregion
            case iso3166Code = "iso3166_2"
        }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(geonamesAdmin1, forKey: .geonamesAdmin1)
            try c.encode(iso3166Code, forKey: .iso3166Code)
            try c.encode(name, forKey: .name)
            try c.encode(inside, forKey: .inside)
            try c.encodeIfPresent(subregion, forKey: .subregion)
        }
    }

    public let position: Position
    public let country: Place?
    public let nearest: Nearest?
    public let suggestion: SuggestionReport
    /// The IANA zone; `nil` from a resolver without time-zone data.
    public let timeZone: String?
    /// The zone's offset at the moment of the answer, `+05:30`; `nil` without a zone or rules.
    public let utcOffset: String?
    /// The same offset in seconds east of UTC.
    public let utcOffsetSeconds: Int?
    /// Kilometres to the nearest edge of the containing country's area; `nil` at sea.
    public let borderDistanceKm: Double?
    /// The suggested country's headlines as the headline service gave them (its own JSON
    /// object, embedded unchanged); `nil` leaves the member out.
    public var headlines: JSONValue?
    /// The nearest place; written only when ``reportsPlace`` (as `null` when this is `nil`).
    public private(set) var place: PlaceReport?
    /// Whether the member `place` is written: set by ``withPlace(_:)``.
    public private(set) var reportsPlace = false

    /// The region; written only when ``reportsRegion`` (as `null` when this is `nil`).
    public private(set) var region: RegionReport?
    /// Whether the member `region` is written: set by ``withRegion(_:language:)``.
    public private(set) var reportsRegion = false

    /// This report with the member `region`, named in `language` (`nil` or a language without a
    /// name of its own gives English), or `null` for `nil`.
    public func withRegion(_ answer: RegionAnswer?, language: String?) -> ResolutionReport {
        var report = self
        report.reportsRegion = true
        report.region = answer.map {
            RegionReport(
                iso3166Code: $0.region.iso3166Code, geonamesAdmin1: $0.region.geonamesAdmin1,
                name: $0.region.name(in: language), inside: $0.inside,
                subregion: $0.subregion.map { RegionReport.SubregionReport(name: $0.name, iso3166Code: $0.iso3166Code) })
        }
        return report
    }

    /// This report with the member `place`: the nearest place, or `null` for `nil`.
    public func withPlace(_ nearest: NearestPlace?) -> ResolutionReport {
        var report = self
        report.reportsPlace = true
        report.place = nearest.map {
            PlaceReport(
                name: $0.place.name, geonameId: $0.place.geonameID, population: $0.place.population,
                distanceKm: Self.rounded($0.distanceKm))
        }
        return report
    }

    /// The report of `resolution`, with country names in `language` (a Natural Earth code
    /// such as `fr` or `zht`; `nil` or an unknown code gives English).
    ///
    /// - Parameters:
    ///   - zoneRules: the rules giving the UTC offset; `nil` uses ``/GeoNewsTimeZones/TimeZoneRules/located``,
    ///     which is loaded only when the resolution has a zone.
    ///   - date: the moment whose UTC offset is reported (now by default).
    public init(
        _ resolution: Resolution, language: String?, headlines: JSONValue? = nil,
        zoneRules: TimeZoneRules? = nil, at date: Date = Date()
    ) {
        let r = resolution
        position = Position(lat: r.position.latitude, lon: r.position.longitude)
        country = r.country.map {
            Place(id: $0.id, iso2: $0.iso2, iso3: $0.iso3, name: $0.name(in: language), sovereign: $0.sovereign, continent: $0.continent)
        }
        nearest = r.nearest.map {
            Nearest(iso2: $0.country.iso2, name: $0.country.name(in: language), distanceKm: Self.rounded($0.distanceKm))
        }
        suggestion = SuggestionReport(
            iso2: r.suggestion.country.iso2, name: r.suggestion.country.name(in: language),
            reason: r.suggestion.reason.rawValue, distanceKm: Self.rounded(r.suggestion.distanceKm),
            explanation: r.explanation(language: language))
        timeZone = r.timeZone
        let offset = r.timeZone.flatMap { (zoneRules ?? TimeZoneRules.located)?.offset(ofZone: $0, at: date) }
        utcOffset = offset?.description
        utcOffsetSeconds = offset?.seconds
        borderDistanceKm = r.borderDistanceKm.map(Self.rounded)
        self.headlines = headlines
    }

    /// How many seconds after `date` a report made at `date` is certain to stay right: up to
    /// the next whole or half hour UTC, 1…1800. The position's answer changes only when its
    /// zone's offset does, and every offset change in tzdata from 2026 on falls on a whole or
    /// half hour UTC (Newfoundland's at 05:30, Lord Howe Island's at 15:30 and 15:00, the
    /// Chatham Islands' at 14:00), so a cache that keeps the answer this long never serves
    /// the offset from before a change; a fixed 300 s could straddle one by up to five minutes.
    public static func secondsValid(after date: Date) -> Int {
        let now = Int64(date.timeIntervalSince1970.rounded(.down))
        let intoHalfHour = ((now % 1800) + 1800) % 1800
        return Int(1800 - intoHalfHour)
    }

    /// Metres are the useful precision for kilometres here.
    static func rounded(_ km: Double) -> Double { (km * 1000).rounded() / 1000 }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(position, forKey: .position)
        try c.encode(suggestion, forKey: .suggestion)
        // Unknown values are written as null rather than left out; `headlines` only when set.
        try c.encode(country, forKey: .country)
        try c.encode(nearest, forKey: .nearest)
        if reportsPlace { try c.encode(place, forKey: .place) }
        if reportsRegion { try c.encode(region, forKey: .region) }
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(utcOffset, forKey: .utcOffset)
        try c.encode(utcOffsetSeconds, forKey: .utcOffsetSeconds)
        try c.encode(borderDistanceKm, forKey: .borderDistanceKm)
        if let headlines { try c.encode(headlines, forKey: .headlines) }
    }

    private enum Keys: String, CodingKey {
        case position, country, nearest, suggestion, headlines, place, region
        case timeZone, utcOffset, utcOffsetSeconds, borderDistanceKm
    }

    /// The report as one line of JSON with sorted keys and unescaped slashes: the exact bytes
    /// `geonews --json` prints (without the final newline), the same bytes `JSONEncoder` gives
    /// with `.sortedKeys` and `.withoutEscapingSlashes`, written by hand because the encoder
    /// was most of the cost of an HTTP resolve answer.
    ///
    /// - Throws: `EncodingError.invalidValue` when `headlines` holds an infinite or NaN number.
    public func jsonData() throws -> Data {
        Data(try jsonBytes())
    }

    /// ``jsonData()`` as bytes.
    public func jsonBytes() throws -> [UInt8] {
        var out = JSONOutput(capacity: headlines == nil ? 512 : 4096)
        out.raw("{\"borderDistanceKm\":")
        if let borderDistanceKm { try out.number(borderDistanceKm) } else { out.raw("null") }
        out.raw(",\"country\":")
        if let c = country {
            out.raw("{\"continent\":"); out.string(c.continent)
            out.raw(",\"id\":"); out.string(c.id)
            // Absent codes are left out, as the synthesised encoding of the member types does.
            if let iso2 = c.iso2 { out.raw(",\"iso2\":"); out.string(iso2) }
            if let iso3 = c.iso3 { out.raw(",\"iso3\":"); out.string(iso3) }
            out.raw(",\"name\":"); out.string(c.name)
            out.raw(",\"sovereign\":"); out.string(c.sovereign)
            out.raw("}")
        } else {
            out.raw("null")
        }
        if let headlines { out.raw(",\"headlines\":"); try out.value(headlines) }
        out.raw(",\"nearest\":")
        if let n = nearest {
            out.raw("{\"distanceKm\":"); try out.number(n.distanceKm)
            if let iso2 = n.iso2 { out.raw(",\"iso2\":"); out.string(iso2) }
            out.raw(",\"name\":"); out.string(n.name)
            out.raw("}")
        } else {
            out.raw("null")
        }
        if reportsPlace {
            out.raw(",\"place\":")
            if let p = place {
                out.raw("{\"distanceKm\":"); try out.number(p.distanceKm)
                out.raw(",\"geonameId\":"); out.number(Int(p.geonameId))
                out.raw(",\"name\":"); out.string(p.name)
                out.raw(",\"population\":"); out.number(Int(p.population))
                out.raw("}")
            } else {
                out.raw("null")
            }
        }
        out.raw(",\"position\":{\"lat\":"); try out.number(position.lat)
        out.raw(",\"lon\":"); try out.number(position.lon)
        out.raw("}")
        if reportsRegion {
            out.raw(",\"region\":")
            if let r = region {
                out.raw("{\"geonamesAdmin1\":"); out.string(r.geonamesAdmin1)
                out.raw(",\"inside\":"); out.raw(r.inside ? "true" : "false")
                out.raw(",\"iso3166_2\":"); out.string(orNull: r.iso3166Code)
                out.raw(",\"name\":"); out.string(r.name)
                if let sub = r.subregion {
                    out.raw(",\"subregion\":{\"iso3166_2\":"); out.string(orNull: sub.iso3166Code)
                    out.raw(",\"name\":"); out.string(sub.name)
                    out.raw("}")
                }
                out.raw("}")
            } else {
                out.raw("null")
            }
        }
        out.raw(",\"suggestion\":{\"distanceKm\":"); try out.number(suggestion.distanceKm)
        out.raw(",\"explanation\":"); out.string(suggestion.explanation)
        if let iso2 = suggestion.iso2 { out.raw(",\"iso2\":"); out.string(iso2) }
        out.raw(",\"name\":"); out.string(suggestion.name)
        out.raw(",\"reason\":"); out.string(suggestion.reason)
        out.raw("},\"timeZone\":"); out.string(orNull: timeZone)
        out.raw(",\"utcOffset\":"); out.string(orNull: utcOffset)
        out.raw(",\"utcOffsetSeconds\":")
        if let utcOffsetSeconds { out.number(utcOffsetSeconds) } else { out.raw("null") }
        out.raw("}")
        return out.bytes
    }

    /// ``jsonData()`` as text.
    public func jsonString() throws -> String {
        String(decoding: try jsonBytes(), as: UTF8.self)
    }
}

import GeoNewsBoundaries

/// The columns every output row gains, in CSV and in JSON, in this order:
/// `country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone`, then
/// `border_distance_km` when asked for (``BatchResolveOptions/includesBorderDistance``), then
/// `region_iso3166_2,region_geonames,region_name` when asked for (``BatchResolveOptions/regions``:
/// the region, ``RegionIndex/region(for:)``, all three empty or `null` with no country; the ISO
/// code alone empty where the region has none), then
/// `place_name,place_geonameid,place_distance_km` when asked for (``BatchResolveOptions/places``:
/// the nearest populated place, ``PlaceIndex/place(for:)``, all three empty or `null` where there
/// is none), then `error`.
///
/// `country_iso2` is empty (CSV) or `null` (JSON) beyond every territorial sea, and for the few
/// features without an ISO code; `time_zone` is the IANA zone (`Etc/GMT±N` on the open ocean),
/// empty or `null` from a resolver without zones; `border_distance_km` is the distance to the
/// nearest edge of the country's area, empty or `null` at sea. Kilometres have three decimals
/// (metres). `error` is empty or `null` unless the record could not be resolved, when every
/// other added column is empty or `null`.
struct ResolvedColumns: Sendable {
    enum Column: String, Sendable, CaseIterable {
        case countryISO2 = "country_iso2"
        case suggestedISO2 = "suggested_iso2"
        case suggestionReason = "suggestion_reason"
        case distanceKm = "distance_km"
        case timeZone = "time_zone"
        case borderDistanceKm = "border_distance_km"
        case regionISO3166 = "region_iso3166_2"
        case regionGeonames = "region_geonames"
        case regionName = "region_name"
        case placeName = "place_name"
        case placeGeonameID = "place_geonameid"
        case placeDistanceKm = "place_distance_km"
        case error

        var isPlace: Bool { self == .placeName || self == .placeGeonameID || self == .placeDistanceKm }
        var isRegion: Bool { self == .regionISO3166 || self == .regionGeonames || self == .regionName }
    }

    /// What a row's place and region columns say: looked up once per row.
    struct Extras {
        var place: NearestPlace?
        var region: RegionAnswer?
    }

    /// The added columns, `error` last.
    let columns: [Column]
    let includesBorderDistance: Bool
    /// The places the place columns come from; `nil` leaves those columns out.
    let places: PlaceIndex?
    /// The regions the region columns come from; `nil` leaves those columns out.
    let regions: RegionIndex?
    /// The columns with a value from the resolution: all but `error`.
    private let valueColumns: [Column]
    /// `"country_iso2":` and so on, in the order of `valueColumns`.
    private let jsonKeys: [String]

    init(includesBorderDistance: Bool = false, places: PlaceIndex? = nil, regions: RegionIndex? = nil) {
        self.includesBorderDistance = includesBorderDistance
        self.places = places
        self.regions = regions
        columns = Column.allCases.filter {
            ($0 != .borderDistanceKm || includesBorderDistance) && (!$0.isPlace || places != nil) && (!$0.isRegion || regions != nil)
        }
        valueColumns = columns.filter { $0 != .error }
        jsonKeys = valueColumns.map { "\"\($0.rawValue)\":" }
    }

    var names: [String] { columns.map(\.rawValue) }

    /// `,FR,FR,inside,0.000,Europe/Paris,` (the empty error last).
    func appendCSV(_ r: Resolution, to out: OutputChunk) {
        let extras = self.extras(for: r)
        for column in valueColumns {
            out.append(UInt8(ascii: ","))
            append(column, of: r, extras: extras, json: false, to: out)
        }
        out.append(UInt8(ascii: ","))
    }

    /// `,,,,,,"line 3: latitude … is outside -90…90"`
    func appendCSVError(_ message: String, to out: OutputChunk) {
        for _ in columns { out.append(UInt8(ascii: ",")) }
        CSVText.appendField(message, to: out)
    }

    /// `"country_iso2":"FR",…,"error":null` (no braces).
    func appendJSON(_ r: Resolution, to out: OutputChunk) {
        let extras = self.extras(for: r)
        for (column, key) in zip(valueColumns, jsonKeys) {
            out.append(key)
            append(column, of: r, extras: extras, json: true, to: out)
            out.append(UInt8(ascii: ","))
        }
        out.append("\"error\":null")
    }

    func appendJSONError(_ message: String, to out: OutputChunk) {
        for key in jsonKeys {
            out.append(key)
            out.append("null,")
        }
        out.append("\"error\":")
        JSONText.appendQuoted(message, to: out)
    }

    /// The nearest place and the region of `r`, each when its columns are written, else `nil`.
    func extras(for r: Resolution) -> Extras { Extras(place: places?.place(for: r), region: regions?.region(for: r)) }

    /// One column's value for `r` (and its place and region, ``extras(for:)``, for those
    /// columns): JSON (`"FR"`, `null`, `12.345`) or a CSV field (`FR`, empty). The error column
    /// has no value here.
    @inline(__always)
    func append(_ column: Column, of r: Resolution, extras: Extras, json: Bool, to out: OutputChunk) {
        let place = extras.place
        switch column {
        case .countryISO2: Self.appendCode(r.country?.iso2, json: json, to: out)
        case .suggestedISO2: Self.appendCode(r.suggestion.country.iso2, json: json, to: out)
        case .suggestionReason:
            if json { out.append(UInt8(ascii: "\"")) }
            out.append(r.suggestion.reason.rawValue)
            if json { out.append(UInt8(ascii: "\"")) }
        case .distanceKm: out.appendKilometres(r.suggestion.distanceKm)
        case .timeZone:
            if let zone = r.timeZone {
                json ? JSONText.appendQuoted(zone, to: out) : CSVText.appendField(zone, to: out)
            } else if json {
                out.append("null")
            }
        case .borderDistanceKm:
            if let km = r.borderDistanceKm { out.appendKilometres(km) } else if json { out.append("null") }
        case .regionISO3166: Self.appendCode(extras.region?.region.iso3166Code, json: json, to: out)
        case .regionGeonames:
            Self.appendCode(extras.region?.region.geonamesAdmin1, json: json, to: out)
            // Counted once per row written, for the summary.
            if let region = extras.region?.region { out.regionCounts[region.code, default: 0] += 1 }
        case .regionName:
            if let name = extras.region?.region.name {
                json ? JSONText.appendQuoted(name, to: out) : CSVText.appendField(name, to: out)
            } else if json {
                out.append("null")
            }
        case .placeName:
            if let name = place?.place.name {
                json ? JSONText.appendQuoted(name, to: out) : CSVText.appendField(name, to: out)
            } else if json {
                out.append("null")
            }
        case .placeGeonameID:
            if let id = place?.place.geonameID { out.append(String(id)) } else if json { out.append("null") }
        case .placeDistanceKm:
            if let km = place?.distanceKm { out.appendKilometres(km) } else if json { out.append("null") }
        case .error: if json { out.append("null") }
        }
    }

    /// An ISO code: unquoted in CSV (codes need no quoting), quoted in JSON, empty or `null` when absent.
    @inline(__always)
    static func appendCode(_ code: String?, json: Bool, to out: OutputChunk) {
        guard let code else {
            if json { out.append("null") }
            return
        }
        if json { out.append(UInt8(ascii: "\"")) }
        out.append(code)
        if json { out.append(UInt8(ascii: "\"")) }
    }
}

/// RFC 4180 field quoting.
enum CSVText {
    /// Appends `bytes` as one CSV field, quoted only when it holds a comma, quote or line break.
    static func appendField(_ bytes: UnsafeBufferPointer<UInt8>, to out: OutputChunk) {
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return out.append(UnsafeRawBufferPointer(bytes)) }
        out.append(UInt8(ascii: "\""))
        for c in bytes {
            if c == UInt8(ascii: "\"") { out.append(c) }
            out.append(c)
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendField(_ text: String, to out: OutputChunk) {
        var text = text
        text.withUTF8 { appendField($0, to: out) }
    }
}

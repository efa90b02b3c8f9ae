import GeoNewsBoundaries

/// The five columns every output row gains, in CSV and in JSON.
///
/// `country_iso2` is empty (CSV) or `null` (JSON) at sea, and for the few land features without
/// an ISO code; `distance_km` has three decimals (metres); `error` is empty or `null` unless
/// the record could not be resolved, when every other added column is empty or `null`.
enum ResolvedColumns {
    static let names = ["country_iso2", "suggested_iso2", "suggestion_reason", "distance_km", "error"]
    static let csvHeader: StaticString = "country_iso2,suggested_iso2,suggestion_reason,distance_km,error"

    /// `,FR,FR,inside,0.000,`
    static func appendCSV(_ r: Resolution, to out: ByteBuffer) {
        out.append(UInt8(ascii: ","))
        if let iso = r.country?.iso2 { out.append(iso) }
        out.append(UInt8(ascii: ","))
        if let iso = r.suggestion.country.iso2 { out.append(iso) }
        out.append(UInt8(ascii: ","))
        appendReason(r.suggestion.reason, to: out)
        out.append(UInt8(ascii: ","))
        out.appendKilometres(r.suggestion.distanceKm)
        out.append(UInt8(ascii: ","))
    }

    /// `,,,,,"line 3: latitude … is outside -90…90"`
    static func appendCSVError(_ message: String, to out: ByteBuffer) {
        out.append(",,,,,")
        CSVText.appendField(message, to: out)
    }

    /// `"country_iso2":"FR",…,"error":null` (no braces).
    static func appendJSON(_ r: Resolution, to out: ByteBuffer) {
        out.append("\"country_iso2\":")
        appendJSONCode(r.country?.iso2, to: out)
        out.append(",\"suggested_iso2\":")
        appendJSONCode(r.suggestion.country.iso2, to: out)
        out.append(",\"suggestion_reason\":\"")
        appendReason(r.suggestion.reason, to: out)
        out.append("\",\"distance_km\":")
        out.appendKilometres(r.suggestion.distanceKm)
        out.append(",\"error\":null")
    }

    static func appendJSONError(_ message: String, to out: ByteBuffer) {
        out.append("\"country_iso2\":null,\"suggested_iso2\":null,\"suggestion_reason\":null,\"distance_km\":null,\"error\":")
        JSONText.appendQuoted(message, to: out)
    }

    static func appendJSONCode(_ code: String?, to out: ByteBuffer) {
        guard let code else { return out.append("null") }
        out.append(UInt8(ascii: "\""))
        out.append(code)
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    static func appendReason(_ reason: SuggestionReason, to out: ByteBuffer) {
        out.append(reason.rawValue)
    }
}

/// RFC 4180 field quoting.
enum CSVText {
    /// Appends `bytes` as one CSV field, quoted only when it holds a comma, quote or line break.
    static func appendField(_ bytes: UnsafeBufferPointer<UInt8>, to out: ByteBuffer) {
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return out.append(UnsafeRawBufferPointer(bytes)) }
        out.append(UInt8(ascii: "\""))
        for c in bytes {
            if c == UInt8(ascii: "\"") { out.append(c) }
            out.append(c)
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendField(_ text: String, to out: ByteBuffer) {
        var text = text
        text.withUTF8 { appendField($0, to: out) }
    }
}

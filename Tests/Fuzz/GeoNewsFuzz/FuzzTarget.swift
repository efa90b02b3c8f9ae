import GeoNewsTraces

#if canImport(Glibc)
import Glibc
#endif

/// Writes a message to standard error at once (a finding aborts right after it).
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
}

/// The parsers under fuzzing, one property check each. Every check fails by ``violated(_:)``,
/// which aborts, so libFuzzer keeps the input as a crash.
enum FuzzTarget: String, CaseIterable {
    case csv, ndjson, geojson, gpx, points, query, rss, newsapi, gnews, gdelt

    /// Runs the property check of this target on one input.
    func check(_ input: [UInt8]) {
        switch self {
        case .csv: BatchProperties.checkCSV(input)
        case .ndjson: BatchProperties.checkNDJSON(input)
        case .geojson: BatchProperties.checkGeoJSON(input)
        case .gpx: BatchProperties.checkGPX(input)
        case .points: PointFileProperties.check(input)
        case .query: QueryTextProperties.check(input)
        case .rss: HeadlineResponseProperties.checkRSS(input)
        case .newsapi: HeadlineResponseProperties.checkNewsAPI(input)
        case .gnews: HeadlineResponseProperties.checkGNews(input)
        case .gdelt: HeadlineResponseProperties.checkGDELT(input)
        }
    }

    /// Loads what the check shares between inputs (the country index), before libFuzzer starts
    /// timing inputs: a slow load would otherwise count as the first input's time.
    func prepare() {
        switch self {
        case .csv, .ndjson, .geojson, .gpx: _ = BatchProperties.resolver
        case .query: _ = ClusterAnswerProperties.index
        case .points, .rss, .newsapi, .gnews, .gdelt: break
        }
    }

    /// `GEONEWS_FUZZ_TARGET`, read once.
    static let selected: FuzzTarget = {
        guard let name = getenv("GEONEWS_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            violated("set GEONEWS_FUZZ_TARGET to one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return target
    }()
}

/// Stops the run with the property that failed and the input's size: a finding.
func violated(_ property: String) -> Never {
    writeToStandardError("geonews-fuzz: property violated: \(property)\n")
    abort()
}

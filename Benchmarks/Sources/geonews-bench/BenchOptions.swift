/// The command line of `geonews-bench`.
struct BenchOptions {
    enum Suite: String, CaseIterable {
        case load, resolve, distance, cluster, exactness, all
    }

    var suites: [Suite] = []
    /// Points per generated set; `nil` takes each suite's default.
    var points: Int?
    var seed: UInt64 = 42
    /// CSV of lat,lon city-like points for the `resolve` suite.
    var input: String?
    /// Folder to write the generated points, our answers and `figures.json` to.
    var out: String?
    var threads = 2
    /// Timed repetitions per figure (the median is reported).
    var runs = 5
    var data: String?

    static let usage = """
        usage: geonews-bench [SUITE...] [--points N] [--seed N] [--input FILE] [--out DIR]
                             [--threads N] [--runs N] [--data DIR]

        SUITE: resolve, load, exactness, distance, cluster, all (the default)
          resolve     single- and multi-thread lookup throughput: city-like (--input), land, sea
          load        index and catalogue load time, resident memory
          exactness   the index against GEOS on random points and vertex-adjacent probes
          distance    great-circle and WGS 84 geodesic distance throughput
          cluster     cluster index build and queries at 15,000 km, 1,000 km and 10 km
        --points N    points per generated set (default: 1,000,000; exactness 10,000,000)
        --seed N      random seed (default 42)
        --input FILE  CSV of lat,lon city-like points (a header line is allowed)
        --out DIR     write the generated points, our answers and figures.json there
        --threads N   threads for the multi-thread figures (default 2)
        --runs N      timed repetitions, median reported (default 5)
        --data DIR    the GeoNews Data directory (default: located like `geonews` does)
        """

    static func parse(_ arguments: [String]) throws(BenchUsageError) -> BenchOptions {
        var o = BenchOptions()
        var args = arguments[...]
        func value(_ flag: String) throws(BenchUsageError) -> String {
            guard let v = args.popFirst() else { throw .missingValue(flag) }
            return v
        }
        func count(_ flag: String, min: Int) throws(BenchUsageError) -> Int {
            let text = try value(flag)
            guard let n = Int(text.replacingUnderscores()), n >= min else { throw .badNumber(flag: flag, text: text) }
            return n
        }
        while let a = args.popFirst() {
            switch a {
            case "--points": o.points = try count(a, min: 1)
            case "--seed": o.seed = UInt64(try count(a, min: 0))
            case "--input": o.input = try value(a)
            case "--out": o.out = try value(a)
            case "--threads": o.threads = try count(a, min: 1)
            case "--runs": o.runs = try count(a, min: 1)
            case "--data": o.data = try value(a)
            case "-h", "--help": throw .helpRequested
            default:
                guard let s = Suite(rawValue: a) else { throw .unknown(a) }
                o.suites.append(s)
            }
        }
        if o.suites.isEmpty || o.suites.contains(.all) {
            o.suites = [.load, .resolve, .distance, .cluster, .exactness]
        }
        return o
    }

    func points(default n: Int) -> Int { points ?? n }
}

enum BenchUsageError: Error, CustomStringConvertible {
    case missingValue(String)
    case badNumber(flag: String, text: String)
    case unknown(String)
    case helpRequested

    var description: String {
        switch self {
        case .missingValue(let flag): return "\(flag) needs a value"
        case .badNumber(let flag, let text): return "\(flag) '\(text)' is not a whole number in range"
        case .unknown(let a):
            return "unknown argument '\(a)' (suites: \(BenchOptions.Suite.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .helpRequested: return BenchOptions.usage
        }
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { filter { $0 != "_" && $0 != "," } }
}

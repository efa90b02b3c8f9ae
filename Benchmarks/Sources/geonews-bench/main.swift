// geonews-bench: GeoNews's benchmark suites (release build). See Benchmarks/README.md.
//
//   swift run -c release --package-path Benchmarks geonews-bench [SUITE...] [--points N] [--seed N] [--input FILE] [--out DIR]
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String, code: Int32) -> Never {
    let line = "geonews-bench: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(code)
}

let options: BenchOptions
do {
    options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch .helpRequested {
    print(BenchOptions.usage)
    exit(0)
} catch {
    fail("\(error)\n\(BenchOptions.usage)", code: 64)
}

do {
    let context = try BenchContext(options: options)
    print("geonews-bench: seed \(options.seed), data \(context.directory.path)")
    // Load first: it measures memory before anything has mapped the index.
    for suite in BenchOptions.Suite.allCases where options.suites.contains(suite) {
        switch suite {
        case .load: try LoadSuite.run(context)
        case .resolve: try ResolveSuite.run(context)
        case .distance: try DistanceSuite.run(context)
        case .cluster: try ClusterSuite.run(context)
        case .exactness: try ExactnessSuite.run(context)
        case .all: break
        }
    }
    if let path = context.outputPath("figures.json") {
        try PointSets.writeRows(path: path, header: context.figures.json().trimmingSuffix(), count: 0) { _ in "" }
    }
} catch {
    fail("\(error)", code: 1)
}

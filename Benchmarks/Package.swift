// swift-tools-version: 6.1
import PackageDescription

// GeoNews's benchmark suites, a package of their own (as swift-nio and swift-collections keep
// theirs), so that the root package builds no benchmark and the suites reach GeoNews only
// through its products: `GeoNews` (what a library user gets), `GeoNewsBoundaryBuilding` (the
// exact GEOS oracles; build time only, links libgeos) and `GeoNewsBenchmarking` (the seeded
// generator, the median and the /proc reader that `geonews bench cluster` shares).
//
//   swift build -c release --package-path Benchmarks
//   Benchmarks/.build/release/geonews-bench --help
let package = Package(
    name: "GeoNewsBenchmarks",
    products: [
        .executable(name: "geonews-bench", targets: ["geonews-bench"])
    ],
    dependencies: [
        .package(name: "GeoNews", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "geonews-bench",
            dependencies: [
                .product(name: "GeoNews", package: "GeoNews"),
                .product(name: "GeoNewsBoundaryBuilding", package: "GeoNews"),
                .product(name: "GeoNewsBenchmarking", package: "GeoNews"),
            ]
        )
    ]
)

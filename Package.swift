// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "GeoNews",
    products: [
        .library(name: "GeoNews", targets: ["GeoNews"]),
        .executable(name: "geonews", targets: ["geonews"]),
        .executable(name: "geonews-news", targets: ["geonews-news"]),
        .executable(name: "geonews-serve", targets: ["geonews-serve"]),
        // Build time only, for the benchmark package (Benchmarks/Package.swift): the GEOS
        // builders and exact oracles. It links libgeos (libgeos-dev); the GeoNews library does not.
        .library(name: "GeoNewsBoundaryBuilding", targets: ["GeoNewsBoundaryBuilding"]),
        // The seeded generator, the median and the /proc reader that `geonews bench cluster`
        // and the benchmark package share.
        .library(name: "GeoNewsBenchmarking", targets: ["GeoNewsBenchmarking"]),
    ],
    // Off in every build but the load test's (Benchmarks/run-serve.sh builds with
    // `--traits BenchmarkRoutes` in a scratch folder of its own): the constant routes that
    // measure the floor of the server's stack are not in the release binary.
    traits: [
        .trait(
            name: "BenchmarkRoutes",
            description: "geonews-serve --benchmark-constant-route: GET /v1/benchmark/constant and /v1/benchmark/constant-clusters")
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The HTTP server; its swift-configuration and full-Foundation traits are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // NIOCore and NIOConcurrencyHelpers (the answer cache's lock), and NIOHTTPTypes (the
        // request-head timeout's handler), which the server imports itself.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The PostgreSQL store: PostgresClient's connection pool, TLS through NIOSSL.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Property-based tests (Swift Testing) of the batch readers.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `swift package generate-documentation --target GeoNews` (the DocC catalogue).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // GEOS's reentrant C API over Debian's libgeos-dev (pkg-config `geos`), for
        // GeoNewsBoundaryBuilding alone: no binary that answers queries links libgeos.
        .systemLibrary(
            name: "CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]
        ),
        // zlib (Debian's zlib1g-dev), for the server's gzip-compressed static answers and the
        // area index's pack.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // One inline function over the compiler's prefetch builtin: a header, nothing to link.
        .systemLibrary(name: "CMemoryHints"),
        // Inline functions over the compiler's vector extensions: great-circle distances four at
        // a time. A header, nothing to link.
        .systemLibrary(name: "CLaneMath"),
        // Great-circle distance and bearing on the mean-radius sphere, and the WGS 84 geodesic
        // (Karney 2013). Swift and one header of inline C, no I/O.
        .target(name: "GeoNewsGeodesy", dependencies: ["CLaneMath"]),
        // JSON text primitives every wire format shares: the string escaper and a JSON value.
        // Pure Swift, no dependencies, so that any module may write JSON the same way.
        .target(name: "GeoNewsJSON"),
        // Proleptic Gregorian day counts (Hinnant's civil-date algorithms), the one copy that the
        // feed dates, the trace times and the time-zone rules share. Pure Swift.
        .target(name: "GeoNewsCalendar"),
        // What every measurement shares: the seeded SplitMix64 points, timings and their median,
        // and the process's memory from /proc/self/status. Used by `geonews bench`, the
        // benchmark package (Benchmarks/) and the exactness tests.
        .target(name: "GeoNewsBenchmarking", dependencies: ["GeoNewsGeodesy"]),
        // The release's version, in one place, for every binary, the server and the User-Agent.
        .target(name: "GeoNewsVersion"),
        // Where the data are found and how a file of them is read: the data directory, its
        // errors and the read-only memory map every index is read through. No GeoNews format.
        .target(name: "GeoNewsData"),
        // Time zones: the zone catalogue (Data/timezones.json), each zone's rules
        // (Data/zoneinfo.bin, POSIX TZ strings) and the UTC offset at an instant, and the
        // time-zone polygons' file the area builders read. No GEOS.
        .target(name: "GeoNewsTimeZones", dependencies: ["GeoNewsCalendar", "GeoNewsData"]),
        // What answers a query, with no GEOS: the country catalogue, the packs and their
        // first-run unpacking (Data/), the country and area indexes (Lookup/), regions and places
        // (Places/), the resolver (Resolver/) and the resolution's output formats (Report/);
        // zlib inflates the committed packs on first use.
        .target(
            name: "GeoNewsBoundaries",
            dependencies: ["CMemoryHints", "CZlib", "GeoNewsCalendar", "GeoNewsData", "GeoNewsGeodesy", "GeoNewsJSON", "GeoNewsTimeZones"]),
        // Build time only: the GEOS wrapper, the builders of the derived data (country index,
        // country areas, area index, basemap) and the exact GEOS oracles the tests and the
        // benchmarks check the indexes against. Linked by geonews-index, the tests and the
        // benchmark package (through the GeoNewsBoundaryBuilding product); never by a binary
        // that answers queries, nor by the GeoNews library.
        .target(
            name: "GeoNewsBoundaryBuilding",
            dependencies: ["CGEOS", "GeoNewsBoundaries", "GeoNewsGeodesy"]
        ),
        // supercluster-compatible hierarchical clustering, camera-altitude zooms, the cluster
        // GeoJSON and the parsing of query boxes, centres and viewports. Pure Swift.
        .target(name: "GeoNewsClustering", dependencies: ["GeoNewsGeodesy", "GeoNewsJSON"]),
        // Headline providers (Google News RSS, GDELT, NewsAPI, GNews), provider chain and cache.
        .target(name: "GeoNewsHeadlines", dependencies: ["GeoNewsCalendar", "GeoNewsVersion"]),
        // Streaming batch resolution of GPS traces (CSV, NDJSON, GeoJSON, GPX).
        .target(
            name: "GeoNewsTraces", dependencies: ["CMemoryHints", "GeoNewsBoundaries", "GeoNewsCalendar", "GeoNewsGeodesy", "GeoNewsJSON"]),
        // The point files that clustering reads (CSV or GeoJSON, from a file or upload chunks),
        // through the traces' streaming readers.
        .target(name: "GeoNewsPoints", dependencies: ["GeoNewsBoundaries", "GeoNewsGeodesy", "GeoNewsTraces"]),
        // The one import for library users (the `GeoNews` product): lookups, clustering,
        // headlines and traces, with no GEOS and none of the server's packages, which SwiftPM
        // then neither compiles nor links for them (Examples/consumer checks it).
        .target(
            name: "GeoNews",
            dependencies: [
                "GeoNewsGeodesy", "GeoNewsJSON", "GeoNewsData", "GeoNewsBoundaries", "GeoNewsClustering",
                "GeoNewsHeadlines", "GeoNewsPoints", "GeoNewsTimeZones", "GeoNewsTraces", "GeoNewsVersion",
            ]
        ),
        // libgeonews's C interface: the header (geonews.h) and the functions behind it, which
        // Scripts/build-clib links with the Swift runtime into libgeonews.so. No GEOS.
        .systemLibrary(name: "CGeoNewsABI"),
        .target(
            name: "GeoNewsCABI",
            dependencies: ["CGeoNewsABI", "GeoNewsBoundaries", "GeoNewsData", "GeoNewsGeodesy", "GeoNewsTimeZones", "GeoNewsVersion"]),
        // Exit codes and one-line errors shared by the two executables.
        .target(
            name: "GeoNewsCommandLine",
            dependencies: ["GeoNewsVersion", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Links no headline code: no FoundationNetworking/libcurl or FoundationXML/libxml2 to
        // load at start. Headline commands run the geonews-news executable beside it.
        .executableTarget(
            name: "geonews",
            dependencies: [
                "GeoNewsGeodesy", "GeoNewsJSON", "GeoNewsBoundaries", "GeoNewsClustering", "GeoNewsPoints", "GeoNewsTraces",
                "GeoNewsCommandLine", "GeoNewsVersion", "GeoNewsBenchmarking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // A position-dependent release executable: a PIE's 40,000 relative relocations are
            // applied at every start, touching about 90 pages before main (docs/first-run.md).
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))]
        ),
        // The headline commands (headlines, search, sources) of geonews.
        .executableTarget(
            name: "geonews-news",
            dependencies: [
                "GeoNewsHeadlines", "GeoNewsCommandLine", "GeoNewsVersion", "GeoNewsBoundaries", "GeoNewsGeodesy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Users, favourites, settings and datasets of the HTTP API behind one protocol, in SQLite
        // (GRDB) or PostgreSQL (postgres-nio): schema, migrations, queries, nothing else.
        .target(
            name: "GeoNewsStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The uploaded point datasets: their files and archives, the registry that maps and
        // clusters them, the turns of their builds, and their sharing between instances. No HTTP.
        .target(
            name: "GeoNewsDatasets",
            dependencies: ["GeoNews", "GeoNewsStore", .product(name: "Metrics", package: "swift-metrics")]
        ),
        // The HTTP API: routes grouped by capability, problem JSON, middleware.
        .target(
            name: "GeoNewsServer",
            dependencies: [
                "GeoNews", "GeoNewsDatasets", "GeoNewsJSON", "GeoNewsStore", "GeoNewsVersion", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                // FlatDictionary, the type of a request's parsed query parameters.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // The HTTP/1.1 pipeline of GeoNewsHTTP1Channel, as Hummingbird's HTTP1Channel builds it.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            resources: [.copy("Resources/openapi.yaml")]
        ),
        // `geonews serve`: parses options and runs the server's service group. A separate
        // executable so that `geonews` links neither NIO nor SQLite.
        .executableTarget(
            name: "geonews-serve",
            dependencies: [
                "GeoNewsServer", "GeoNewsCommandLine", "GeoNewsVersion", "GeoNewsBoundaries", "GeoNewsStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Builds the derived data with GEOS: Data/country-index.bin, catalogue.bin and basemap.geojson
        // from Data/boundaries.bin, then .build-data/country-areas.bin and area-index.bin from the
        // decoded time zones (Scripts/ensure-areas), and checks them all (--check).
        .executableTarget(
            name: "geonews-index",
            dependencies: [
                "GeoNewsBoundaries", "GeoNewsBoundaryBuilding", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmark suites (geonews-bench) are a package of their own, Benchmarks/Package.swift,
        // which depends on this one by path.
        // Property checks of the parsers for libFuzzer (Scripts/fuzz builds it with
        // -sanitize=fuzzer,address -DGEONEWS_FUZZ); an ordinary build replays a corpus.
        .executableTarget(
            name: "GeoNewsFuzz",
            dependencies: [
                "GeoNewsGeodesy", "GeoNewsData", "GeoNewsBoundaries", "GeoNewsClustering", "GeoNewsPoints", "GeoNewsTraces",
                "GeoNewsHeadlines", "CLibFuzzer",
            ],
            path: "Tests/Fuzz/GeoNewsFuzz"
        ),
        // The declaration of libFuzzer's driver (the toolchain's libclang_rt.fuzzer).
        .systemLibrary(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
        // Reads Fixtures/geodesic-reference.csv from the source tree (Scripts/geodesic_reference.py).
        .testTarget(name: "GeoNewsGeodesyTests", dependencies: ["GeoNewsGeodesy", "CLaneMath"], exclude: ["Fixtures"]),
        .testTarget(name: "GeoNewsJSONTests", dependencies: ["GeoNewsJSON"]),
        .testTarget(name: "GeoNewsCalendarTests", dependencies: ["GeoNewsCalendar"]),
        // Reads Fixtures/osm-*.csv from the source tree (Scripts/build_land.py --fixtures).
        .testTarget(
            name: "GeoNewsBoundariesTests",
            dependencies: ["GeoNewsBoundaries", "GeoNewsBoundaryBuilding", "GeoNewsBenchmarking", "GeoNewsData", "GeoNewsTimeZones"],
            exclude: ["Fixtures"]),
        .testTarget(name: "GeoNewsClusteringTests", dependencies: ["GeoNewsClustering", "GeoNewsBenchmarking"]),
        // A real HTTP/1.1 server on loopback that serves the providers' wire formats in tests.
        .target(name: "GeoNewsLoopback", path: "Tests/GeoNewsLoopback"),
        .testTarget(
            name: "GeoNewsHeadlinesTests", dependencies: ["GeoNewsHeadlines", "GeoNewsLoopback", "GeoNewsVersion"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "GeoNewsTracesTests",
            dependencies: [
                "GeoNewsTraces", "GeoNewsData", "GeoNewsTimeZones", "GeoNewsBenchmarking",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "GeoNewsPointsTests", dependencies: ["GeoNewsPoints", "GeoNewsTraces", "GeoNewsGeodesy", "GeoNewsBenchmarking"]),
        // Runs the geonews binary; imports it (@testable) for the human summary at a fixed moment.
        .testTarget(name: "GeoNewsCLITests", dependencies: ["GeoNews", "geonews", "geonews-index", "GeoNewsLoopback"]),
        .testTarget(name: "GeoNewsServerTests", dependencies: ["GeoNews", "GeoNewsDatasets", "GeoNewsServer", "GeoNewsLoopback"]),
        .testTarget(
            name: "GeoNewsStoreTests",
            dependencies: [
                "GeoNewsStore", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
    ]
)

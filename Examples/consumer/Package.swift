// swift-tools-version: 6.1
import PackageDescription

// A program that uses GeoNews as a library user would: by its `GeoNews` product alone. SwiftPM
// compiles only the targets that product needs, so neither GEOS nor the server's packages (NIO,
// GRDB, swift-crypto, Prometheus, Hummingbird) are built or linked; check.sh asserts it.
let package = Package(
    name: "consumer",
    dependencies: [
        .package(name: "GeoNews", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "consumer",
            dependencies: [.product(name: "GeoNews", package: "GeoNews")]
        )
    ]
)

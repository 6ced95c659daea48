// swift-tools-version:6.0
import PackageDescription

// The libFuzzer harness, in its own package so the main package's `swift build` and `swift test`
// never see it. Build and run it with `Fuzz/run.sh`.
let package = Package(
    name: "EndpointKitFuzz",
    dependencies: [.package(name: "EndpointKit", path: "..")],
    targets: [
        // The OpenAPI generator's JSON and YAML reader, EndpointKitOpenAPIReader (a symbolic link to
        // its sources, under another module name: target names are unique across packages). It is
        // no library product of the main package, so the harness compiles it as its own target.
        .target(name: "FuzzOpenAPIReader"),
        .executableTarget(
            name: "EndpointKitFuzz",
            dependencies: [.product(name: "EndpointKit", package: "EndpointKit"), "FuzzOpenAPIReader"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)

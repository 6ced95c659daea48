// swift-tools-version:6.0
import PackageDescription

// The libFuzzer harness, in its own package so the main package's `swift build` and `swift test`
// never see it. Build and run it with `Fuzz/run.sh`.
let package = Package(
    name: "EndpointKitFuzz",
    dependencies: [.package(name: "EndpointKit", path: "..")],
    targets: [
        .executableTarget(
            name: "EndpointKitFuzz",
            dependencies: [.product(name: "EndpointKit", package: "EndpointKit")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ],
    swiftLanguageModes: [.v6]
)

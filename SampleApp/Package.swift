// swift-tools-version:6.2
import PackageDescription

// App-shaped code built on EndpointKit, compiled in CI in the two modes an app target is written
// in (see Docs/Concurrency.md): `PlainApp` in plain Swift 6 language mode, `ModernApp` with what a
// new Xcode 26 app target sets (default main-actor isolation and approachable concurrency). Each
// has a main-actor screen that updates its own state from every callback form; its tests run the
// screen against an embedded loopback server. From the repository root:
// `swift test --package-path SampleApp`.
//
// SwiftPM names the path dependency after its folder: a checkout of the repository in a folder named
// `SampleApp` (in any case) has this package's own identity and does not resolve; any other name does.
let package = Package(
    name: "EndpointKitSampleApp",
    // The library's own minimums (its Package.swift): the sample is what an app at those
    // minimums writes, so it uses nothing newer (its plugins lock with `NSLock`, not `Mutex`,
    // which needs iOS 18 / macOS 15).
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "EndpointKit", path: "..")],
    targets: [
        // An app target as Swift 6 language mode writes it, with no other setting.
        .target(
            name: "PlainApp",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitStreaming", package: "EndpointKit"),
                .product(name: "EndpointKitComposition", package: "EndpointKit"),
            ]
        ),
        // An app target as Xcode 26 creates it: Default Actor Isolation = MainActor, Approachable
        // Concurrency on.
        .target(
            name: "ModernApp",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitStreaming", package: "EndpointKit"),
                .product(name: "EndpointKitComposition", package: "EndpointKit"),
            ],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]
        ),
        // The loopback server of the library's tests, EndpointKitTestServer (a symbolic link to its
        // sources, under another module name: target names are unique across packages). Each test
        // target serves its app's backend with it.
        .target(name: "SampleTestServer"),
        .testTarget(
            name: "PlainAppTests",
            dependencies: [
                "PlainApp", "SampleTestServer", .product(name: "EndpointKitTesting", package: "EndpointKit"),
            ]
        ),
        // A test target of an Xcode 26 app keeps the default (nonisolated) isolation; approachable
        // concurrency is a project setting, so it has it too.
        .testTarget(
            name: "ModernAppTests",
            dependencies: [
                "ModernApp", "SampleTestServer", .product(name: "EndpointKitTesting", package: "EndpointKit"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

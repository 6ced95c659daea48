// swift-tools-version:6.0
import PackageDescription

// `endpointkit-bench`: EndpointKit against hand-written baselines, in its own package so that the
// library's package offers only the libraries and the demo. Run it from the repository root with
// `swift run --package-path Bench -c release endpointkit-bench` (see Docs/Performance.md).
let package = Package(
    name: "EndpointKitBench",
    platforms: [.macOS(.v13)],
    products: [.executable(name: "endpointkit-bench", targets: ["EndpointKitBench"])],
    dependencies: [.package(name: "EndpointKit", path: "..")],
    targets: [
        // The loopback server of the library's tests, EndpointKitTestServer (a symbolic link to its
        // sources, under another module name: target names are unique across packages). The bench
        // serves the scenarios' routes with it in a child process.
        .target(name: "BenchTestServer"),
        // The declarations of the library's libcurl shim (a symbolic link to its header), for the
        // bare libcurl reference (BareCurlClient); the functions come with EndpointKit.
        .systemLibrary(name: "CCurlShimAPI", path: "Sources/CCurlShimAPI"),
        .executableTarget(
            name: "EndpointKitBench",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitStreaming", package: "EndpointKit"), "BenchTestServer",
                .target(name: "CCurlShimAPI", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "EndpointKitBenchTests", dependencies: ["EndpointKitBench", "BenchTestServer"]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "EndpointKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "EndpointKit", targets: ["EndpointKit"]),
        .library(name: "EndpointKitTesting", targets: ["EndpointKitTesting"]),
        .library(name: "EndpointKitXML", targets: ["EndpointKitXML"]),
        .executable(name: "endpointkit-demo", targets: ["EndpointKitDemo"]),
        .executable(name: "endpointkit-bench", targets: ["EndpointKitBench"]),
    ],
    targets: [
        // Declarations of the libcurl API that CurlTransport uses; libcurl.so.4 is loaded at run time.
        .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "EndpointKit",
            dependencies: [.target(name: "CCurlShim", condition: .when(platforms: [.linux]))]
        ),
        .target(name: "EndpointKitTesting", dependencies: ["EndpointKit"]),
        // XML responses; a separate product so only apps that need it link libxml2 on Linux.
        .target(name: "EndpointKitXML", dependencies: ["EndpointKit"]),
        // Loopback HTTP/1.1 server used by the tests and the demo; not part of any library product.
        .target(name: "EndpointKitTestServer"),
        .executableTarget(
            name: "EndpointKitDemo",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitTestServer"]
        ),
        // `swift run -c release endpointkit-bench`: EndpointKit against hand-written baselines.
        .executableTarget(
            name: "EndpointKitBench",
            dependencies: [
                "EndpointKit", "EndpointKitTestServer",
                // For the bare libcurl reference (BareCurlClient), the floor under EndpointKit+libcurl.
                .target(name: "CCurlShim", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(
            name: "EndpointKitTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitTestServer", "EndpointKitXML"]
        ),
        .testTarget(name: "EndpointKitTestServerTests", dependencies: ["EndpointKitTestServer"]),
        // The testing kit's own tests, in XCTest and Swift Testing.
        .testTarget(
            name: "EndpointKitTestingTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitTestServer"],
            exclude: ["Fixtures"]
        ),
        // A sample app's tests, written the way a user of EndpointKitTesting would write them.
        .testTarget(
            name: "SampleAppTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitTestServer"],
            exclude: ["Fixtures"]
        ),
        // Depends on the executable so `swift build --build-tests` builds the binary it runs.
        .testTarget(name: "EndpointKitBenchTests", dependencies: ["EndpointKitBench"]),
    ],
    swiftLanguageModes: [.v6]
)

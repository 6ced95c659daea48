// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "EndpointKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "EndpointKit", targets: ["EndpointKit"]),
        .library(name: "EndpointKitTesting", targets: ["EndpointKitTesting"]),
        .executable(name: "endpointkit-demo", targets: ["EndpointKitDemo"]),
    ],
    targets: [
        // Declarations of the libcurl API that CurlTransport uses; libcurl.so.4 is loaded at run time.
        .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "EndpointKit",
            dependencies: [.target(name: "CCurlShim", condition: .when(platforms: [.linux]))]
        ),
        .target(name: "EndpointKitTesting", dependencies: ["EndpointKit"]),
        // Loopback HTTP/1.1 server used by the tests and the demo; not part of any library product.
        .target(name: "EndpointKitTestServer"),
        .executableTarget(
            name: "EndpointKitDemo",
            dependencies: ["EndpointKit", "EndpointKitTestServer"]
        ),
        .testTarget(
            name: "EndpointKitTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitTestServer"]
        ),
        .testTarget(name: "EndpointKitTestServerTests", dependencies: ["EndpointKitTestServer"]),
    ],
    swiftLanguageModes: [.v6]
)

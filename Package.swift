// swift-tools-version:6.1
// 6.1: the package's tests and the guides' examples put `nonisolated` on types (SE-0449), which
// Swift 6.1 (Xcode 16.3) introduced.
import PackageDescription

let package = Package(
    name: "EndpointKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "EndpointKit", targets: ["EndpointKit"]),
        .library(name: "EndpointKitTesting", targets: ["EndpointKitTesting"]),
        // Stubs and sample responses without XCTest, for a demo build or SwiftUI previews of an app.
        .library(name: "EndpointKitStubs", targets: ["EndpointKitStubs"]),
        .library(name: "EndpointKitXML", targets: ["EndpointKitXML"]),
        // Features an app opts into, one `import` each: the core does not know them.
        .library(name: "EndpointKitFeedback", targets: ["EndpointKitFeedback"]),
        .library(name: "EndpointKitStreaming", targets: ["EndpointKitStreaming"]),
        .library(name: "EndpointKitOutbox", targets: ["EndpointKitOutbox"]),
        .library(name: "EndpointKitComposition", targets: ["EndpointKitComposition"]),
        .executable(name: "endpointkit-demo", targets: ["EndpointKitDemo"]),
        // Request types, models and sample responses from an OpenAPI document (Docs/OpenAPI.md).
        .executable(name: "endpointkit-openapi", targets: ["endpointkit-openapi"]),
        // `swift package generate-endpoints ...`, and generation at build time from a target's openapi.yaml.
        .plugin(name: "GenerateEndpoints", targets: ["GenerateEndpoints"]),
        .plugin(name: "EndpointKitOpenAPIBuildPlugin", targets: ["EndpointKitOpenAPIBuildPlugin"]),
    ],
    targets: [
        // Declarations of the libcurl API that CurlTransport uses; libcurl.so.4 is loaded at run time.
        // Linux only: Xcode still builds it for Apple platforms (swift-package-manager#6554), where
        // its sources compile to nothing and CurlTransport (`#if os(Linux)`) does not exist.
        .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "EndpointKit",
            dependencies: [.target(name: "CCurlShim", condition: .when(platforms: [.linux]))],
            // Apple's privacy manifest: the file-timestamp API reasons (the disk cache, upload and
            // download files); no tracking, no collected data.
            resources: [.process("PrivacyInfo.xcprivacy")]
        ),
        // The testing kit: EndpointKitStubs (re-exported) and its XCTest and Swift Testing assertions.
        .target(
            name: "EndpointKitStubs", dependencies: ["EndpointKit"],
            // A demo build links this module: its own privacy manifest names the file-timestamp API
            // it calls (the size of a captured upload file).
            resources: [.process("PrivacyInfo.xcprivacy")]),
        .target(name: "EndpointKitTesting", dependencies: ["EndpointKit", "EndpointKitStubs"]),
        // XML responses; a separate product so only apps that need it link libxml2 on Linux.
        .target(name: "EndpointKitXML", dependencies: ["EndpointKit"]),
        // The loading indicator and failure messages plugin, with its texts.
        .target(name: "EndpointKitFeedback", dependencies: ["EndpointKit"]),
        // Responses read as they arrive: chunks, lines, NDJSON, Server-Sent Events.
        .target(name: "EndpointKitStreaming", dependencies: ["EndpointKit"]),
        // Writes that must reach the server: durable on enqueue, sent once, through kills.
        .target(name: "EndpointKitOutbox", dependencies: ["EndpointKit"]),
        // Batches and chains of requests (YTKNetwork's YTKBatchRequest and YTKChainRequest).
        .target(name: "EndpointKitComposition", dependencies: ["EndpointKit"]),
        // Loopback HTTP/1.1 server used by the tests and the demo (and, through a symbolic link, by
        // the benchmark package in Bench/); not part of any library product.
        .target(name: "EndpointKitTestServer"),
        .executableTarget(
            name: "EndpointKitDemo",
            dependencies: ["EndpointKit", "EndpointKitStubs", "EndpointKitTestServer"]
        ),
        // A process the outbox tests start, kill with SIGKILL and start again on the same
        // directory (OutboxKillTests, OutboxDiskFaultTests); not a product.
        .executableTarget(name: "EndpointKitOutboxChild", dependencies: ["EndpointKit", "EndpointKitOutbox"]),
        .testTarget(
            name: "EndpointKitTests",
            dependencies: [
                "EndpointKit", "EndpointKitTesting", "EndpointKitTestServer", "EndpointKitXML", "EndpointKitFeedback",
                "EndpointKitStreaming", "EndpointKitOutbox", "EndpointKitComposition",
            ]
        ),
        .testTarget(name: "EndpointKitTestServerTests", dependencies: ["EndpointKitTestServer"]),
        // The OpenAPI generator: a JSON and YAML reader of its own, the generator, its command line.
        // Not libraries: an app never links them.
        .target(name: "EndpointKitOpenAPIReader"),
        .target(name: "EndpointKitOpenAPIGenerator", dependencies: ["EndpointKitOpenAPIReader"]),
        // Named as its product: a plugin finds its tool by the executable target's name.
        .executableTarget(
            name: "endpointkit-openapi", dependencies: ["EndpointKitOpenAPIGenerator"],
            path: "Sources/EndpointKitOpenAPI"
        ),
        .plugin(
            name: "GenerateEndpoints",
            capability: .command(
                intent: .custom(verb: "generate-endpoints", description: "Generate endpoints from an OpenAPI document"),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated endpoints to the --output folder")]
            ),
            dependencies: ["endpointkit-openapi"],
            path: "Sources/GenerateEndpointsCommand"
        ),
        .plugin(
            name: "EndpointKitOpenAPIBuildPlugin", capability: .buildTool(), dependencies: ["endpointkit-openapi"],
            path: "Sources/EndpointKitOpenAPIBuildPlugin"
        ),
        // Endpoints generated at build time from its openapi.yaml (the build-tool plugin), sent to the
        // test server and decoded: the plugin, the generated code and the samples together.
        .testTarget(
            name: "EndpointKitOpenAPIRoundTripTests",
            dependencies: ["EndpointKit", "EndpointKitStubs", "EndpointKitStreaming", "EndpointKitTestServer"],
            plugins: ["EndpointKitOpenAPIBuildPlugin"]
        ),
        .testTarget(
            name: "EndpointKitOpenAPITests",
            dependencies: [
                "EndpointKitOpenAPIReader", "EndpointKitOpenAPIGenerator", "EndpointKit", "EndpointKitStubs",
                "EndpointKitStreaming", "EndpointKitTestServer",
            ]
        ),
        // The testing kit's own tests, in XCTest and Swift Testing.
        .testTarget(
            name: "EndpointKitTestingTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitTestServer", "EndpointKitStreaming"],
            exclude: ["Fixtures"]
        ),
        // A sample app's tests, written the way a user of EndpointKitTesting would write them.
        .testTarget(
            name: "SampleAppTests",
            dependencies: ["EndpointKit", "EndpointKitTesting", "EndpointKitTestServer"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
import PackageDescription

// `path-trace`: which of the library's files one request passes through, in order, recorded
// from the running code (SanitizerCoverage function-entry callbacks), not read off the source.
// In its own package so that the library's package is untouched. Run it from the repository root
// with `bash Tools/PathTrace/path-trace.sh` (see README.md here): the script adds the
// instrumentation flags, which `swift run` alone does not.
let package = Package(
    name: "PathTrace",
    platforms: [.macOS(.v13)],
    products: [.executable(name: "path-trace", targets: ["PathTrace"])],
    dependencies: [.package(name: "EndpointKit", path: "../..")],
    targets: [
        // The loopback server of the library's tests, EndpointKitTestServer (a symbolic link to its
        // sources, under another module name, as in Bench/).
        .target(name: "TraceServer"),
        // The coverage callbacks and the recording buffer. C, so the Swift-only coverage flags leave
        // it uninstrumented; frame pointers, so the callback can read its caller's caller.
        .target(name: "CPathTraceRecorder", cSettings: [.unsafeFlags(["-fno-omit-frame-pointer", "-O2"])]),
        .executableTarget(
            name: "PathTrace",
            dependencies: [.product(name: "EndpointKit", package: "EndpointKit"), "TraceServer", "CPathTraceRecorder"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

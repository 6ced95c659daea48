#!/usr/bin/env bash
# Round trip of an OpenAPI document through endpointkit-openapi: generates its code into a
# temporary package (depending on this repository by path), then a test sends every request of
# `SampleRequests.all` to a loopback TestServer that answers with that request's sample response,
# and checks that the response decodes. Finds models that do not decode their own documented
# examples.
#
#   Bench/openapi/roundtrip.sh SPEC [generator options...]
#
# Prints `round-trip: N of M operations decoded` and each failure. Exits non-zero when one fails.
# ROUNDTRIP_WORK=DIR keeps the package (and its build) in DIR for the next run.
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 SPEC [generator options...]" >&2
    exit 2
fi
spec=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
repo=$(cd "$(dirname "$0")/../.." && pwd)
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
work=${ROUNDTRIP_WORK:-$(mktemp -d)}
mkdir -p "$work"

(cd "$repo" && swift build --product endpointkit-openapi >/dev/null)
generator=$(cd "$repo" && swift build --product endpointkit-openapi --show-bin-path)/endpointkit-openapi

mkdir -p "$work/Sources/Generated" "$work/Tests/RoundTripTests"
rm -f "$work/Sources/Generated/"*.swift
rm -f "$work/Sources/EndpointKitTestServer"
ln -sfn "$repo/Sources/EndpointKitTestServer" "$work/Sources/RoundTripTestServer"
"$generator" generate --spec "$spec" --output "$work/Sources/Generated" "$@"

cat >"$work/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RoundTrip",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .target(
            name: "Generated",
            dependencies: [
                .product(name: "EndpointKit", package: "$identity"),
                .product(name: "EndpointKitStubs", package: "$identity"),
                .product(name: "EndpointKitStreaming", package: "$identity"),
            ]),
        .target(name: "RoundTripTestServer"),
        .testTarget(
            name: "RoundTripTests",
            dependencies: [
                "Generated", "RoundTripTestServer", .product(name: "EndpointKit", package: "$identity"),
                .product(name: "EndpointKitStubs", package: "$identity"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
EOF

cat >"$work/Tests/RoundTripTests/RoundTripTests.swift" <<'EOF'
import EndpointKit
@_spi(Internal) import EndpointKitStubs
import RoundTripTestServer
import Foundation
import Generated
import XCTest

/// The response the server answers the next request with.
final class RoundTripSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = RoundTripTestServer.TestResponse.status(500)

    var response: RoundTripTestServer.TestResponse {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

final class RoundTripTests: XCTestCase {
    func testEverySampleRequestDecodesItsSample() async throws {
        let server = try RoundTripTestServer.TestServer()
        defer { server.stop() }
        let slot = RoundTripSlot()
        server.route("*") { _ in slot.response }
        let client = EndpointKit.APIClient(configuration: .init(baseURL: server.baseURL))
        let requests = SampleRequests.all
        var failures: [String] = []
        for request in requests {
            if let failure = await roundTrip(request, client: client, slot: slot) { failures.append(failure) }
        }
        print("round-trip: \(requests.count - failures.count) of \(requests.count) operations decoded")
        for failure in failures { print("  FAILED " + failure) }
        XCTAssertTrue(failures.isEmpty)
    }

    private func roundTrip<Request: SampleResponseProviding>(
        _ request: Request, client: EndpointKit.APIClient, slot: RoundTripSlot
    ) async -> String? {
        guard let http = request.sampleResponse.httpContent else {
            return "\(Request.self): the sample is not an HTTP response"
        }
        slot.response = .response(
            status: http.status, headers: http.headers.map { ($0.name, $0.value) }, body: http.body)
        switch await client.send(request) {
        case .success: return nil
        case .serverFailure(let failure): return "\(Request.self): \(failure)"
        case .transportError(let error): return "\(Request.self): \(error)"
        }
    }
}
EOF

cd "$work"
if ! swift build --build-tests >build.log 2>&1; then
    grep -E "error:" build.log | head -50
    echo "the generated code does not build: $work/build.log" >&2
    exit 1
fi
if grep -E "warning:" build.log | grep -F "/Sources/Generated/"; then
    echo "the generated code builds with warnings: $work/build.log" >&2
    exit 1
fi
status=0
swift test --skip-build >test.log 2>&1 || status=$?
grep -E "round-trip:|FAILED|error:" test.log || cat test.log
exit $status

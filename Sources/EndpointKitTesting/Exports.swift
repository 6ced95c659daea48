// The stubs, samples, contracts and record-and-replay transport live in EndpointKitStubs, which
// does not link XCTest, so a demo build or SwiftUI previews can use them; a test target imports
// this module and gets them too, with the XCTest and Swift Testing assertions declared here.
@_exported import EndpointKitStubs

import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

/// The XCTest adapters: a satisfied contract passes silently, a violated one fails at the
/// caller's line with the diff.
final class ContractXCTestAdapterTests: XCTestCase {
    private let base = URL(string: "https://api.test") ?? URL(fileURLWithPath: "/")
    private var captured: [(description: String, line: Int)] = []
    private var capturing = false

    func testThatASatisfiedContractPasses() {
        assertEndpoint(
            GetProfile(id: 7), matches: EndpointContract(method: .get, url: "https://api.test/profiles/7"),
            baseURL: base)
        assertEndpoint(
            Login(user: "u", password: "p"), matches: EndpointContract(body: .form(["password": "p", "user": "u"])),
            client: makeClient(StubTransport()))
        assertContract(EndpointContract(body: .empty).check(GetProfile(id: 7), baseURL: base))
    }

    #if !canImport(ObjectiveC)
    // corelibs XCTest reports failures through `recordFailure`; capture them to check the adapter.
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard capturing else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append((description, lineNumber))
    }

    func testThatAViolatedContractFailsAtTheCallersLineWithTheDiff() {
        capturing = true
        let line = #line + 1
        assertEndpoint(GetProfile(id: 7), matches: EndpointContract(url: "https://api.test/profiles/8"), baseURL: base)
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertTrue(captured.first?.description.contains("- https://api.test/profiles/8") == true)
        XCTAssertTrue(captured.first?.description.contains("+ https://api.test/profiles/7") == true)
    }
    #endif
}

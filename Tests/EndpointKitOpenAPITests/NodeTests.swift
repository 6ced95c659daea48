import XCTest

@testable import EndpointKitOpenAPIReader

final class NodeTests: XCTestCase {
    func testSubscriptFindsTheFirstMemberOfAKey() {
        let node = Node.object([.init("a", .number("1")), .init("a", .number("2"))])
        XCTAssertEqual(node["a"], .number("1"))
        XCTAssertNil(Node.array([])["a"])
    }
}

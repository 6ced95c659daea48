import XCTest

@testable import EndpointKit

/// The token rule every method and header name goes through, byte by byte against RFC 9110's
/// `tchar` list (§5.6.2).
final class HeaderFieldRulesTests: XCTestCase {
    private let tokenCharacters = Set(
        "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    func testThatEachASCIIByteIsATokenExactlyWhenRFC9110ListsIt() {
        for byte in UInt8(0)...UInt8(127) {
            let text = String(decoding: [byte], as: UTF8.self)
            XCTAssertEqual(HeaderFieldRules.isToken(text), tokenCharacters.contains(byte), "byte \(byte)")
            XCTAssertEqual(HeaderFieldRules.isToken("X-" + text + "-Y"), tokenCharacters.contains(byte), "byte \(byte)")
        }
    }

    func testThatEmptyAndNonASCIINamesAreNotTokens() {
        XCTAssertFalse(HeaderFieldRules.isToken(""))
        XCTAssertFalse(HeaderFieldRules.isToken("Café"))
        XCTAssertFalse(HeaderFieldRules.isToken("X Y"))
        XCTAssertTrue(HeaderFieldRules.isToken("GET"))
        XCTAssertTrue(HeaderFieldRules.isToken("X-Request-ID"))
    }
}

import Foundation
import XCTest

@testable import EndpointKit

/// SHA-256 and its hexadecimal form, which name cache files and partial downloads: a change here
/// would orphan every file already on disk. And MD5, which only HTTP Digest authentication uses.
final class DigestTests: XCTestCase {
    func testThatKnownVectorsHashAsFIPS180Says() {
        XCTAssertEqual(Digest.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Digest.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            Digest.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testThatAMillionBytesSpanningManyBlocksHash() {
        let data = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        XCTAssertEqual(Digest.hex(data), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    private func md5(_ text: String) -> String { Digest.lowercaseHex(MD5.hash(Data(text.utf8))) }

    func testThatMD5MatchesTheVectorsOfRFC1321() {
        XCTAssertEqual(md5(""), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(md5("a"), "0cc175b9c0f1b6a831c399e269772661")
        XCTAssertEqual(md5("abc"), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(md5("message digest"), "f96b697d7cb7938d525a2f31aaf161d0")
        XCTAssertEqual(md5("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b")
        XCTAssertEqual(
            md5(String(repeating: "1234567890", count: 8)), "57edf4a22be3c955ac49da2e2107b67a", "two blocks")
    }
}

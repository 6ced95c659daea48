import EndpointKit
import Foundation
import Testing

/// Path and query escaping, as parameterized Swift Testing cases.
@Suite("Percent-encoding of paths and queries")
struct PercentEncodingTests {
    @Test(
        "An interpolated value stays one path segment",
        arguments: [
            ("../admin", "/users/..%2Fadmin"), ("..", "/users/%2E%2E"), (".", "/users/%2E"),
            ("a b", "/users/a%20b"), ("x?y#z", "/users/x%3Fy%23z"), ("100%", "/users/100%25"),
            ("line\r\nbreak", "/users/line%0D%0Abreak"), ("é", "/users/%C3%A9"), ("a+b@c:d", "/users/a+b@c:d"),
        ])
    func segment(value: String, expected: String) {
        let path: RequestPath = "/users/\(value)"
        #expect(path.encoded == expected)
    }

    @Test("Literal text keeps slashes and existing escapes")
    func literal() {
        #expect(RequestPath(stringLiteral: "/a b/c%20d/e?f").encoded == "/a%20b/c%20d/e%3Ff")
    }

    @Test(
        "Query values escape everything but unreserved characters",
        arguments: [
            ("a b", "q=a%20b"), ("a+b", "q=a%2Bb"), ("a&b=c", "q=a%26b%3Dc"), ("~-._", "q=~-._"),
            ("ü", "q=%C3%BC"), ("/?", "q=%2F%3F"),
        ])
    func query(value: String, expected: String) {
        let items: QueryItems = ["q": .string(value)]
        #expect(items.percentEncoded(arrayEncoding: .repeatedKey) == expected)
    }

    @Test("Method idempotency follows RFC 9110")
    func idempotency() {
        #expect(HTTPMethod.get.isIdempotent && HTTPMethod.put.isIdempotent && HTTPMethod.delete.isIdempotent)
        #expect(!HTTPMethod.post.isIdempotent && !HTTPMethod.patch.isIdempotent)
    }
}

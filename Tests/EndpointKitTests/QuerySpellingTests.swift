import Foundation
import Testing

@testable import EndpointKit

/// A percent-encoding other than the standard one, carried by the query items it applies to.
@Suite("Query items with their own percent-encoding")
struct QuerySpellingTests {
    @Test("Allowed characters outside a query's own are encoded anyway")
    func spelling() {
        let all: ClosedRange<Unicode.Scalar> = "\u{0}"..."\u{10FFFF}"
        let spelling = QuerySpelling(allowed: CharacterSet(charactersIn: all), spaceAsPlus: true)
        #expect(
            PercentEncoding.encodeQueryComponent("a b&c=d+e#f%g[h]é\n/?:@!$'()*,;", spelling: spelling)
                == "a+b%26c%3Dd%2Be%23f%25g%5Bh%5D%C3%A9%0A/?:@!$'()*,;")
    }

    @Test("Unreserved characters left out of the allowed ones are encoded")
    func narrower() {
        let spelling = QuerySpelling(allowed: CharacterSet(charactersIn: "abcd"), spaceAsPlus: false)
        #expect(PercentEncoding.encodeQueryComponent("abc d~1", spelling: spelling) == "abc%20d%7E%31")
    }

    @Test("The standard spelling is the standard rule, byte for byte")
    func standard() {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self) + "é"
        #expect(
            PercentEncoding.encodeQueryComponent(ascii, spelling: .standard)
                == PercentEncoding.encodeQueryComponent(ascii))
    }

    @Test("Items with a spelling are written with it, the others the standard way")
    func mixedItems() {
        var spelled = QueryItems.Item("q", ["a b", "c/d"])
        spelled.spelling = QuerySpelling(allowed: CharacterSet(charactersIn: "abcdq/"), spaceAsPlus: true)
        let items = QueryItems([spelled, QueryItems.Item("r", "a b/")])
        #expect(items.percentEncoded(arrayEncoding: .brackets) == "q%5B%5D=a+b&q%5B%5D=c/d&r=a%20b%2F")
        #expect(QueryItems([QueryItems.Item("r", "a b/")]).percentEncoded(arrayEncoding: .brackets) == "r=a%20b%2F")
    }
}

@_spi(Internal) import EndpointKit
import Foundation
import Testing

/// How nested parameters (`QueryValue.dictionary`) are written: bracketed names, lists inside
/// them per `ArrayEncoding`, order, escaping, and what is left out.
@Suite("Nested parameters in queries and forms")
struct NestedQueryEncodingTests {
    private static let encodings: [ArrayEncoding] = [.repeatedKey, .brackets, .commaSeparated]

    private func decoded(_ items: QueryItems, _ encoding: ArrayEncoding) -> String {
        items.pairs(arrayEncoding: encoding).map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    @Test("A dictionary literal is written under bracketed names, in its order", arguments: encodings)
    func brackets(encoding: ArrayEncoding) {
        let items: QueryItems = ["filter": ["status": "open", "owner": "me"], "page": 2]
        #expect(decoded(items, encoding) == "filter[status]=open&filter[owner]=me&page=2")
        #expect(
            items.percentEncoded(arrayEncoding: encoding)
                == "filter%5Bstatus%5D=open&filter%5Bowner%5D=me&page=2")
    }

    @Test("Dictionaries nest, and a name may repeat inside one")
    func nesting() {
        let items: QueryItems = ["a": .dictionary([.init("b", "1"), .init("b", ["c": "2"])])]
        #expect(decoded(items, .repeatedKey) == "a[b]=1&a[b][c]=2")
        #expect(items.percentEncoded(arrayEncoding: .repeatedKey) == "a%5Bb%5D=1&a%5Bb%5D%5Bc%5D=2")
        let deep: QueryItems = ["user": ["address": ["city": "Oslo", "zip": 150]]]
        #expect(decoded(deep, .brackets) == "user[address][city]=Oslo&user[address][zip]=150")
    }

    @Test(
        "A list inside a dictionary follows the array encoding",
        arguments: [
            (ArrayEncoding.repeatedKey, "user[tags]=x&user[tags]=y&user[name]=ada"),
            (.brackets, "user[tags][]=x&user[tags][]=y&user[name]=ada"),
            (.commaSeparated, "user[tags]=x,y&user[name]=ada"),
        ])
    func lists(encoding: ArrayEncoding, expected: String) {
        let items: QueryItems = ["user": ["tags": ["x", "y"], "name": "ada"]]
        #expect(decoded(items, encoding) == expected)
    }

    @Test("Keys inside brackets are percent-encoded like any name")
    func escaping() {
        let items: QueryItems = ["q": ["a b&c=": "1+1", "é": "x"]]
        #expect(items.percentEncoded(arrayEncoding: .repeatedKey) == "q%5Ba%20b%26c%3D%5D=1%2B1&q%5B%C3%A9%5D=x")
    }

    @Test("None and empty dictionaries are left out")
    func leftOut() {
        let items: QueryItems = ["a": ["x": nil], "b": [:], "c": ["d": [:], "e": "1"], "f": "2"]
        #expect(decoded(items, .repeatedKey) == "c[e]=1&f=2")
    }

    @Test("A dictionary built at run time is written in the order of its keys")
    func sortedByKey() {
        let filters = ["status": "open", "assignee": "me", "label": "bug"]
        let items: QueryItems = ["filter": .dictionary(sortedByKey: filters.mapValues(QueryValue.init))]
        #expect(decoded(items, .repeatedKey) == "filter[assignee]=me&filter[label]=bug&filter[status]=open")
    }

    @Test("Values without dictionaries are written as before", arguments: encodings)
    func unchanged(encoding: ArrayEncoding) {
        let items: QueryItems = ["b": "2", "tags": ["p", "q"], "skip": nil, "a": "x y"]
        let expected = [
            ArrayEncoding.repeatedKey: "b=2&tags=p&tags=q&a=x%20y",
            .brackets: "b=2&tags%5B%5D=p&tags%5B%5D=q&a=x%20y",
            .commaSeparated: "b=2&tags=p%2Cq&a=x%20y",
        ]
        #expect(items.percentEncoded(arrayEncoding: encoding) == expected[encoding])
    }
}

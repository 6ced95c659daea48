import EndpointKit
import EndpointKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Contracts for multipart bodies: parts by name, file name, content type and content.
@Suite struct MultipartContractTests {
    private let base = URL(string: "https://api.test") ?? URL(fileURLWithPath: "/")
    private let photo = Data([0x89, 0x50, 0x4E, 0x47])

    @Test func partsMatchInAnyOrderUnlessAskedFor() {
        let parts: [ExpectedPart] = [
            .file("photo", fileName: "cat.png", contentType: "image/png", data: photo), .field("owner", "Ada"),
            .json("items", ["count": 2.0]),
        ]
        expectEndpoint(UploadPhoto(), matches: EndpointContract(body: .multipart(parts)), baseURL: base)
        let ordered = EndpointContract(body: .multipart(parts, order: .exact)).check(UploadPhoto(), baseURL: base)
        #expect(ordered.mismatches.map(\.summary) == ["the multipart parts differ"])
    }

    @Test func aFileWithAnyContentOnlyChecksItsNames() {
        let contract = EndpointContract(
            body: .multipart([
                .field("owner", "Ada"), .json("items", ["count": 2]), .file("photo", fileName: "cat.png"),
            ]))
        #expect(contract.check(UploadPhoto(), baseURL: base).isSatisfied)
    }

    @Test func differencesAreListedPartByPart() {
        let contract = EndpointContract(
            body: .multipart([
                .field("owner", "Bob"), .json("items", ["count": 3]), .file("photo", fileName: "dog.png"),
                .field("caption", "hi"),
            ]))
        let report = contract.check(UploadPhoto(), baseURL: base)
        #expect(
            report.mismatches.first?.diff == [
                #"- part "owner" (Bob)"#, #"+ part "owner" with content Ada"#,
                #"- part "items" (application/json, {"count":3})"#, #"+ part "items" with JSON {"count":2}"#,
                #"- part "photo" (file dog.png)"#, #"+ part "photo" with file name "cat.png""#,
                #"- part "caption" (hi)"#,
            ])
        let fewer = EndpointContract(body: .multipart([.field("owner", "Ada")])).check(UploadPhoto(), baseURL: base)
        #expect(fewer.mismatches.first?.diff == [#"+ part "items""#, #"+ part "photo""#])
    }

    @Test func aBodyThatIsNotMultipartIsSaidSo() {
        let report = EndpointContract(body: .multipart([.field("user", "u")])).check(
            Login(user: "u", password: "p"), baseURL: base)
        #expect(report.mismatches.map(\.aspect) == [.header("Content-Type")])
        var request = URLRequest(url: base)
        request.setValue("multipart/form-data; boundary=XYZ", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("no boundary here".utf8)
        let broken = EndpointContract(body: .multipart([])).check(request)
        #expect(
            broken.mismatches.first?.summary == "the body is not multipart: the boundary XYZ does not occur in the body"
        )
    }
}

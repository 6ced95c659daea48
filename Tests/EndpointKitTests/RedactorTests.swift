import EndpointKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redactor: the one set of rules for hiding secrets in fixtures and logs.
@Suite struct RedactorTests {
    private let redactor = Redactor.default

    @Test func theDefaultSecretHeadersAreReplacedWhateverTheirCase() {
        let headers: HTTPHeaders = [
            "authorization": "Bearer abc", "Cookie": "a=b", "SET-COOKIE": "s=1", "Proxy-Authorization": "Basic x",
            "Accept": "application/json",
        ]
        let redacted = redactor.redact(headers)
        #expect(redacted.map(\.value) == ["REDACTED", "REDACTED", "REDACTED", "REDACTED", "application/json"])
        #expect(redacted.map(\.name) == headers.map(\.name))
        #expect(redactor.redact(["Cookie": "a=b", "X-Other": "1"]) == ["Cookie": "REDACTED", "X-Other": "1"])
    }

    @Test func secretQueryValuesAreReplacedAndTheRestOfTheURLIsKept() throws {
        let url = try #require(URL(string: "https://api.test/p%20q?b=2&ACCESS_TOKEN=s%3Dcret&a=x%2By&api_key=k#frag"))
        let redacted = redactor.redact(url)
        #expect(
            redacted.absoluteString == "https://api.test/p%20q?b=2&ACCESS_TOKEN=REDACTED&a=x%2By&api_key=REDACTED#frag")
        let plain = try #require(URL(string: "https://api.test/p?a=1"))
        #expect(redactor.redact(plain) == plain)
        #expect(redactor.redactQuery("password&PassWord=&x=1") == "password&PassWord=REDACTED&x=1")
    }

    @Test func formAndJSONBodiesLoseTheirSecretsAtAnyDepth() {
        let form = Data("user=ada&pass+word=no&password=hunter%202&client_secret=s".utf8)
        let redactedForm = redactor.redactBody(form, contentType: "application/x-www-form-urlencoded; charset=utf-8")
        #expect(
            String(decoding: redactedForm, as: UTF8.self)
                == "user=ada&pass+word=no&password=REDACTED&client_secret=REDACTED")

        let json = Data(#"{"user":{"name":"ada","password":"hunter2"},"tokens":[{"refresh_token":"r"}],"n":1}"#.utf8)
        let redactedJSON = String(decoding: redactor.redactBody(json, contentType: "application/json"), as: UTF8.self)
        #expect(
            redactedJSON
                == #"{"n":1,"tokens":[{"refresh_token":"REDACTED"}],"user":{"name":"ada","password":"REDACTED"}}"#)

        let sniffed = redactor.redactBody(Data(#"{"access_token":"t"}"#.utf8), contentType: nil)
        #expect(String(decoding: sniffed, as: UTF8.self) == #"{"access_token":"REDACTED"}"#)
    }

    @Test func bodiesWithoutSecretsComeBackByteForByte() {
        let json = Data("{ \"b\" : 1,\n \"a\" : 2.50 }".utf8)
        #expect(redactor.redactBody(json, contentType: "application/json") == json)
        let text = Data("password=secret".utf8)
        #expect(redactor.redactBody(text, contentType: "text/plain") == text)
        let broken = Data(#"{"password":"#.utf8)
        #expect(redactor.redactBody(broken, contentType: "application/json") == broken)
    }

    @Test func extraNamesAndAnotherReplacementCanBeConfigured() {
        let custom = Redactor(headerNames: ["X-Api-Key"], parameterNames: ["pin"], replacement: "***")
        #expect(custom.redactHeader("x-api-key", value: "k") == "***")
        #expect(custom.redactHeader("Authorization", value: "Bearer t") == "Bearer t")
        #expect(custom.redactQuery("pin=1234&password=p") == "pin=%2A%2A%2A&password=p")

        let extended = Redactor.default.adding(headerNames: ["X-Session"], parameterNames: ["Session_ID"])
        #expect(extended.isSecretHeader("x-session") && extended.isSecretHeader("Authorization"))
        #expect(extended.isSecretParameter("session_id") && extended.isSecretParameter("password"))
        #expect(Redactor(parameterNames: []).redactQuery("password=p") == "password=p")
    }

    @Test func aWholeRequestIsRedacted() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.test/login?access_token=t&v=1")))
        request.httpMethod = "POST"
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"password":"p","user":"u"}"#.utf8)

        let redacted = redactor.redact(request)
        #expect(redacted.url?.absoluteString == "https://api.test/login?access_token=REDACTED&v=1")
        #expect(redacted.value(forHTTPHeaderField: "Authorization") == "REDACTED")
        #expect(redacted.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(redacted.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"password":"REDACTED","user":"u"}"#)
        #expect(redacted.httpMethod == "POST")
    }
}

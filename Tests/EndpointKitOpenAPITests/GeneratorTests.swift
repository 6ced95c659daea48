import EndpointKitOpenAPIGenerator
import EndpointKitOpenAPIReader
import XCTest

/// The generated text of the project's test documents: names, types, requests, diagnostics.
final class GeneratorTests: XCTestCase {
    /// The code generated from `constructs-3.1.json` with the default options.
    private func constructs() throws -> String {
        GeneratorFixtures.text(try GeneratorFixtures.generate("constructs-3.1.json"))
    }

    func testRequestNamesFollowOperationIDsOrMethodAndPath() throws {
        let code = try constructs()
        for name in [
            "ListPets", "PetsCreate", "PetsGet", "DeletePetsPetId", "UploadPhoto", "CreateMessage", "PutClashPath",
        ] {
            XCTAssertTrue(code.contains("public struct \(name): APIRequest {"), name)
        }
        XCTAssertTrue(code.contains("public struct StreamMessage: StreamingRequest {"))
        XCTAssertTrue(code.contains("var format: StreamFormat<ServerSentEvent> { .serverSentEvents }"))
        // POST /messages/stream answers its request and ends: it must not reconnect (send again).
        XCTAssertTrue(code.contains("var reconnection: StreamReconnection { .never }"))
    }

    func testSchemaNamesClashingWithGeneratedCodeAreRenamed() throws {
        let code = try constructs()
        XCTAssertTrue(code.contains("public struct ResponseModel: Codable, Sendable {"))
        XCTAssertTrue(code.contains("public typealias DataModel = String"))
        XCTAssertTrue(code.contains("public struct ListPetsModel: Codable, Sendable {"))
        XCTAssertFalse(code.contains("struct Response:"))
    }

    func testPropertyTypes() throws {
        let code = try constructs()
        let expected = [
            "public var id: Int64", "public var name: String", "public var status: Status?",
            "public var weight: Double?", "public var born: String?", "public var seenAt: Date?",
            "public var uuid: UUID?", "public var photo: Data?", "public var tags: [String]?",
            "public var attributes: [String: Int]?", "public var extra: JSONValue?", "public var free: JSONValue?",
            "public var nickname: String?", "public var legacy: String?", "public var owner: Owner?",
            "public var kind: PetKind?", "public var count: Int?",
        ]
        for line in expected { XCTAssertTrue(code.contains(line), line) }
        XCTAssertTrue(code.contains("case seenAt = \"seen_at\""))
        XCTAssertTrue(code.contains("public typealias MaybeText = String"))
        XCTAssertTrue(code.contains("public typealias NullableOwner = Owner"))
    }

    func testAwkwardNamesAreEscapedOrRenamed() throws {
        let code = try constructs()
        for line in [
            "public var selfValue: String?", "public var `default`: Bool?", "public var type: String?",
            "public var `protocol`: String?", "public var _123abc: String?", "public var value: String?",
            "public var hashValueValue: Int?", "case `default`", "case unknownValue", "case selfValue", "case _123",
            "case inProgress", "case unknown(String)", "case valueMinus3", "case unknown(Int)",
        ] {
            XCTAssertTrue(code.contains(line), line)
        }
        XCTAssertTrue(
            code.contains("case `default`: self = .`default`") || code.contains("case \"default\": self = .`default`"))
    }

    func testCompositions() throws {
        let code = try constructs()
        XCTAssertTrue(code.contains("public indirect enum Animal: Codable, Sendable {"))
        XCTAssertTrue(code.contains("case discriminator = \"pet_type\""))
        XCTAssertTrue(code.contains("case \"kitty\":"))
        XCTAssertTrue(code.contains("case \"dog\":"))
        XCTAssertTrue(code.contains("public indirect enum StringOrNumber: Codable, Sendable {"))
        XCTAssertTrue(code.contains("if let value = try? [String](from: decoder) {"))
        // allOf merges the referenced members into one struct.
        let dog = try XCTUnwrap(code.range(of: "public struct Dog: Codable"))
        let dogBody = code[dog.lowerBound...].prefix(800)
        XCTAssertTrue(dogBody.contains("public var name: String"))
        XCTAssertTrue(dogBody.contains("public var bark: Bool"))
    }

    func testModelsAreEquatableOnlyWhenAsked() throws {
        XCTAssertTrue(try constructs().contains("public struct Pet: Codable, Sendable {"))
        let result = try GeneratorFixtures.generate("constructs-3.1.json") { $0.equatable = true }
        let code = GeneratorFixtures.text(result)
        XCTAssertTrue(code.contains("public struct Pet: Codable, Equatable, Sendable {"))
        XCTAssertTrue(code.contains("public indirect enum Animal: Codable, Equatable, Sendable {"))
    }

    func testRecursiveStructsAreBoxed() throws {
        let code = try constructs()
        XCTAssertTrue(code.contains("private var _parent: Indirect<Node>?"))
        XCTAssertTrue(code.contains("private var _node: Indirect<Node>"))
        XCTAssertTrue(code.contains("public var children: [Node]?"))
        XCTAssertTrue(code.contains("public struct Indirect<Wrapped: Codable & Sendable>"))
        XCTAssertTrue(code.contains("extension Indirect: Equatable where Wrapped: Equatable"))
    }

    func testRequestsParametersAndBodies() throws {
        let code = try constructs()
        XCTAssertTrue(
            code.contains(
                "public init(dryRun: Bool? = nil, model: String, messages: [CreateMessageRequestMessagesItem], maxTokens: Int, metadata: CreateMessageRequestMetadata? = nil)"
            ))
        XCTAssertTrue(code.contains("return .json(body).appendingQuery(query)"))
        XCTAssertTrue(
            code.contains(
                "if let value = tagValue {\n            query.append(\"tag\", QueryValue.array(value.map { $0 }))"))
        XCTAssertTrue(code.contains("query.append(\"status\", QueryValue.string(status.rawValue))"))
        XCTAssertTrue(code.contains("QueryValue.string(value.map { String($0) }.joined(separator: \",\"))"))
        XCTAssertTrue(code.contains("cookies.append(\"session=\" + value)"))
        XCTAssertTrue(code.contains("var path: RequestPath { \"/pets/\\(String(petId))\" }"))
        XCTAssertTrue(code.contains("public init(pathValue: String, name: String? = nil, body: NewPet)"))
        XCTAssertTrue(code.contains(".form(encoding: body)"))
        XCTAssertTrue(
            code.contains(
                "(body.map { RequestParameters.data($0, contentType: \"image/png\") } ?? RequestParameters.none)"))
        XCTAssertTrue(
            code.contains("form.append(file.data, name: \"file\", fileName: file.fileName, mimeType: file.contentType)")
        )
        XCTAssertTrue(code.contains("public typealias Response = Empty"))
        XCTAssertTrue(code.contains("public typealias Response = [String: String]"))
        XCTAssertTrue(code.contains("public typealias Response = Data"))
        XCTAssertTrue(code.contains("public typealias Response = String"))
    }

    func testKeywordLabelsAreEscapedOnlyWhereTheCompilerNeedsIt() throws {
        let code = try constructs()
        XCTAssertTrue(
            code.contains(
                "self.body = NewPet(name: name, tag: tag, default: `default`, var: `var`, `inout`: `inout`)"))
    }

    func testServersAndSecurity() throws {
        let code = try constructs()
        XCTAssertTrue(code.contains("public static let production: URL? = URL(string: \"https://api.example.com/v1\")"))
        XCTAssertTrue(
            code.contains("public static func server2(region: String = \"us\", version: String = \"v2\") -> URL?"))
        XCTAssertTrue(code.contains("URL(string: \"https://\\(region).example.com/\\(version)\")"))
        for name in ["BearerAuth", "Basic", "ApiKey", "QueryKey", "CookieKey", "Oauth", "Oidc"] {
            XCTAssertTrue(code.contains("public struct \(name)Interceptor: RequestInterceptor {"), name)
        }
        XCTAssertTrue(code.contains("HTTPHeaders.authorization(username: username, password: password)"))
        XCTAssertTrue(code.contains("#if canImport(FoundationNetworking)"))
    }

    func testDiagnosticsNameTheirPointerAndWhatIsSkipped() throws {
        let result = try GeneratorFixtures.generate("constructs-3.1.json")
        let messages = result.diagnostics.map(\.description)
        XCTAssertTrue(
            messages.contains { $0.hasPrefix("#/paths/~1xml/post/requestBody: error: a body of application/xml") })
        XCTAssertTrue(
            messages.contains {
                $0.hasPrefix("#/paths/~1external/get/responses/200/content/application~1json/schema/$ref: error:")
            })
        XCTAssertTrue(messages.contains { $0.hasPrefix("#/components/securitySchemes/mutual: warning:") })
        XCTAssertEqual(
            result.skipped,
            [
                "schema Loop1", "schema Loop2", "schema UsesExternal", "schema UsesUsesExternal", "schema Mixed",
                "operation XmlOnly", "operation External",
            ])
        XCTAssertEqual(result.operations, 11)
    }

    func testOutputIsDeterministicInEveryLayout() throws {
        for layout in GeneratorOptions.Layout.allCases {
            let first = try GeneratorFixtures.generate("constructs-3.1.json") { $0.layout = layout }
            let second = try GeneratorFixtures.generate("constructs-3.1.json") { $0.layout = layout }
            XCTAssertEqual(first.files, second.files)
            for file in first.files {
                XCTAssertTrue(file.contents.hasPrefix("// Generated by endpointkit-openapi from constructs-3.1.json."))
                XCTAssertFalse(file.contents.contains("\t"))
            }
        }
        let names = try GeneratorFixtures.generate("constructs-3.1.json") { $0.layout = .tag }.files.map(\.name)
        XCTAssertEqual(
            names,
            [
                "Models1.swift", "Support.swift", "Security.swift", "PetsRequests.swift", "PetsRequests+Samples.swift",
                "Requests.swift", "Contracts.swift",
            ])
    }

    func testFilteringKeepsOnlyReachableSchemas() throws {
        let result = try GeneratorFixtures.generate("constructs-3.1.json") { $0.tags = ["pets"] }
        let code = GeneratorFixtures.text(result)
        XCTAssertEqual(result.operations, 2)
        XCTAssertTrue(code.contains("struct Pet: Codable"))
        XCTAssertTrue(code.contains("struct NewPet: Codable"))
        XCTAssertFalse(code.contains("struct Node: Codable"))
        XCTAssertFalse(code.contains("struct PetsGet"))
        let byPath = try GeneratorFixtures.generate("constructs-3.1.json") { $0.paths = ["/pets"] }
        XCTAssertEqual(byPath.operations, 7)
        let byID = try GeneratorFixtures.generate("constructs-3.1.json") { $0.operationIDs = ["login"] }
        XCTAssertEqual(byID.operations, 1)
        XCTAssertEqual(byID.schemas, 1)
    }

    func testOptionsPrefixAccessAndSkippedSchemas() throws {
        let result = try GeneratorFixtures.generate("constructs-3.1.json") {
            $0.typePrefix = "OA"
            $0.accessLevel = .internal
            $0.skippedSchemas = ["Owner"]
            $0.samples = false
        }
        let code = GeneratorFixtures.text(result)
        XCTAssertTrue(code.contains("nonisolated struct OAPet: Codable, Sendable {"))
        XCTAssertTrue(code.contains("nonisolated struct OAListPets: APIRequest {"))
        XCTAssertTrue(code.contains("    var owner: JSONValue?"))
        XCTAssertFalse(code.contains("public "))
        XCTAssertFalse(code.contains("SampleResponseProviding"))
    }

    func testSamplesUseSafeRawStrings() throws {
        let code = try constructs()
        XCTAssertTrue(
            code.contains(
                ###".json(##"[{"id":1,"name":"Rex \"#","status":"available","weight":31.5e0}]"##, status: 200)"###))
        XCTAssertTrue(code.contains(##".json(#"{"id":2,"name":"Rex"}"#, status: 201)"##))
    }

    func testYAMLDocumentIn30Style() throws {
        let result = try GeneratorFixtures.generate("petstore-3.0.yaml")
        let code = GeneratorFixtures.text(result)
        XCTAssertEqual(result.skipped, [])
        XCTAssertTrue(code.contains("public struct ListPets: APIRequest {"))
        XCTAssertTrue(code.contains("public struct PostPets: APIRequest {"))
        XCTAssertTrue(code.contains("case _1"))
        XCTAssertTrue(code.contains("case three"))
        XCTAssertTrue(code.contains("public var owner: Owner?"))
        XCTAssertTrue(code.contains(##"[{"id":31,"name":"Rex \"#","born":"2020-01-01","weight":null}]"##))
        XCTAssertTrue(code.contains("/// Multi-line */ description."))
    }

    func testYAMLAndJSONVariantsGenerateTheSameCode() throws {
        let json = try GeneratorFixtures.generate("constructs-3.1.json") { $0.samples = false }
        let yaml = try GeneratorFixtures.generate("constructs-3.1.yaml") { $0.samples = false }
        XCTAssertEqual(json.files.map(\.name), yaml.files.map(\.name))
        for (first, second) in zip(json.files, yaml.files) {
            XCTAssertEqual(
                first.contents.split(separator: "\n").dropFirst(), second.contents.split(separator: "\n").dropFirst())
        }
        XCTAssertEqual(json.diagnostics.map(\.description), yaml.diagnostics.map(\.description))
    }

    func testDocumentsThatAreNotOpenAPI3AreRefused() {
        XCTAssertThrowsError(try Generator.generate(.array([]), options: GeneratorOptions()))
        XCTAssertThrowsError(
            try Generator.generate(
                .object([.init("swagger", .string("2.0")), .init("paths", .object([]))]), options: GeneratorOptions()))
    }
}

import EndpointKitOpenAPIGenerator
import EndpointKitOpenAPIReader
import XCTest

/// The contracts and sample requests written next to the sample responses.
final class GeneratorContractTests: XCTestCase {
    /// A small document: a recursive schema, nullable and enum members, parameters of each kind,
    /// a form body and a text response.
    private let document = """
        {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
         "paths": {
          "/pets/{id}": {"put": {"operationId": "updatePet",
            "parameters": [
              {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}},
              {"name": "dryRun", "in": "query", "schema": {"type": "boolean"}},
              {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string", "example": "t-1"}},
              {"name": "session", "in": "cookie", "schema": {"type": "string"}}],
            "requestBody": {"required": true,
              "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {
              "schema": {"$ref": "#/components/schemas/Pet"},
              "example": {"name": "Rex", "kind": "dog"}}}}}}},
          "/login": {"post": {"operationId": "login",
            "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
              "type": "object", "properties": {"user": {"type": "string"}, "code": {"type": "integer", "format": "int32"}},
              "required": ["user"], "additionalProperties": false}}}},
            "responses": {"200": {"description": "ok",
              "content": {"text/plain": {"schema": {"type": "string"}, "example": "welcome"}}}}}}},
         "components": {"schemas": {
          "Pet": {"type": "object", "required": ["name", "kind"], "properties": {
            "name": {"type": "string"}, "kind": {"enum": ["cat", "dog"]},
            "born": {"type": "string", "format": "date-time"},
            "parent": {"$ref": "#/components/schemas/Pet"},
            "note": {"type": ["string", "null"]},
            "tags": {"type": "object", "additionalProperties": {"type": "integer"}}}},
          "Unused": {"type": "string"}}}}
        """

    private func generated() throws -> String {
        let root = try DocumentReader.read(Array(document.utf8))
        return try Generator.generate(root, options: GeneratorOptions()).files.map(\.contents).joined()
    }

    func testContractsDescribeEachOperation() throws {
        let code = try generated()
        let expected = """
                /// `PUT /pets/{id}`: what ``UpdatePet`` must send.
                public static var updatePet: OperationContract {
                    OperationContract(
                        method: .put,
                        path: "/pets/{id}",
                        query: [OperationContract.Parameter("dryRun", schema: .boolean)],
                        headers: [OperationContract.Parameter("X-Trace", required: true, schema: .string())],
                        body: OperationContract.Body(contentType: "application/json", schema: .reference("Pet")),
                        schemas: schemas)
                }

                /// `POST /login`: what ``Login`` must send.
                public static var login: OperationContract {
                    var properties1: [String: JSONSchema] = [:]
                    properties1["user"] = .string()
                    properties1["code"] = .integer
                    return OperationContract(
                        method: .post,
                        path: "/login",
                        body: OperationContract.Body(contentType: "application/x-www-form-urlencoded", schema: .object(properties1, required: ["user"], additionalProperties: nil), required: false),
                        schemas: schemas)
                }
            """
        XCTAssertTrue(code.contains(expected), code)
        let pet = """
                    var properties2: [String: JSONSchema] = [:]
                    properties2["name"] = .string()
                    properties2["kind"] = .string(values: ["cat", "dog"])
                    properties2["born"] = .string()
                    properties2["parent"] = .reference("Pet")
                    properties2["note"] = .anyOf([.string(), .null])
                    properties2["tags"] = .object(additionalProperties: .integer)
                    schemas["Pet"] = .object(properties2, required: ["name", "kind"])
            """
        XCTAssertTrue(code.contains(pet), code)
        XCTAssertFalse(code.contains("schemas[\"Unused\"]"), "only the schemas the operations use")
    }

    func testSampleRequestsUsePlaceholdersAndDocumentedExamples() throws {
        let code = try generated()
        XCTAssertTrue(
            code.contains(
                "requests.append(UpdatePet(id: 0, xTrace: \"t-1\", name: \"string\", kind: PetKind.cat))"), code)
        XCTAssertTrue(code.contains("requests.append(Login(user: \"string\"))"), code)
        XCTAssertTrue(
            code.contains(
                "public var sampleResponse: StubResponse { .text(\"welcome\", status: 200, contentType: \"text/plain\") }"
            ), code)
    }

    func testADiscriminatorWithoutMappingAlsoAcceptsEachAlternativesConstant() throws {
        let text = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {},
             "components": {"schemas": {
              "Item": {"oneOf": [{"$ref": "#/components/schemas/Message"}, {"$ref": "#/components/schemas/Call"}],
                "discriminator": {"propertyName": "type"}},
              "Message": {"type": "object", "properties": {"type": {"type": "string", "enum": ["message"]}}},
              "Call": {"type": "object", "properties": {"type": {"const": "call"}}}}}}
            """
        let root = try DocumentReader.read(Array(text.utf8))
        let code = try Generator.generate(root, options: GeneratorOptions()).files.map(\.contents).joined()
        XCTAssertTrue(code.contains("case \"Message\", \"message\":"), code)
        XCTAssertTrue(code.contains("case \"Call\", \"call\":"), code)
    }
}

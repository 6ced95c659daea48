import EndpointKitOpenAPIGenerator
import EndpointKitOpenAPIReader
import Foundation
import XCTest

/// The files each layout writes, the model files, and the configuration file's options.
final class GeneratorLayoutTests: XCTestCase {
    /// The names of the files generated from `constructs-3.1.json`.
    private func names(_ configure: (inout GeneratorOptions) -> Void) throws -> [String] {
        try GeneratorFixtures.generate("constructs-3.1.json", configure).files.map(\.name)
    }

    /// A file's lines after its header and imports.
    private func body(_ file: GeneratedFile) -> [Substring] {
        let lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard let imports = lines.lastIndex(where: { $0.hasPrefix("import ") }) else { return Array(lines) }
        return Array(lines[(imports + 1)...].drop(while: \.isEmpty))
    }

    func testSingleLayoutFileNamesDoNotDependOnTheDocument() throws {
        XCTAssertEqual(try names { _ in }, ["API.swift", "API+Models1.swift", "API+Samples.swift"])
        let fixed = ["GeneratedEndpoints.swift"] + (1...4).map { "GeneratedEndpoints+Models\($0).swift" }
        let named: (inout GeneratorOptions) -> Void = {
            $0.name = "GeneratedEndpoints"
            $0.modelFiles = 4
        }
        XCTAssertEqual(try names(named), fixed + ["GeneratedEndpoints+Samples.swift"])
        XCTAssertEqual(
            try names {
                named(&$0); $0.tags = ["none"]
            }, fixed + ["GeneratedEndpoints+Samples.swift"])
        XCTAssertEqual(
            try names {
                named(&$0); $0.samples = false
            }, fixed)
        let petstore = try GeneratorFixtures.generate("petstore-3.0.yaml", named).files.map(\.name)
        XCTAssertEqual(petstore, fixed + ["GeneratedEndpoints+Samples.swift"])
    }

    func testOtherLayoutsNumberTheirModelFiles() throws {
        XCTAssertEqual(
            try names {
                $0.layout = .tag; $0.modelFiles = 2
            },
            [
                "Models1.swift", "Models2.swift", "Support.swift", "Security.swift", "PetsRequests.swift",
                "PetsRequests+Samples.swift", "Requests.swift", "Contracts.swift",
            ])
    }

    func testModelFilesKeepDeclarationsWholeAndInDocumentOrder() throws {
        let one = try GeneratorFixtures.generate("constructs-3.1.json") { $0.modelFiles = 1 }
        let whole = body(one.files[1]).filter { !$0.isEmpty }
        for count in [2, 3, 7, 200] {
            let result = try GeneratorFixtures.generate("constructs-3.1.json") { $0.modelFiles = count }
            let models = result.files.filter { $0.name.hasPrefix("API+Models") }
            XCTAssertEqual(models.map(\.name), (1...count).map { "API+Models\($0).swift" })
            XCTAssertEqual(models.flatMap(body).filter { !$0.isEmpty }, whole)
            for file in models {
                let lines = body(file)
                XCTAssertEqual(
                    lines.filter { $0.hasPrefix("}") }.count,
                    lines.filter { $0.hasSuffix(" {") && !$0.hasPrefix(" ") }.count, file.name)
                XCTAssertFalse(lines.first?.hasPrefix(" ") == true, file.name)
                XCTAssertFalse(file.contents.hasSuffix("\n\n"), file.name)
            }
        }
    }

    func testModelFilesByDefaultHoldAbout1500Lines() throws {
        let properties = Node.object(
            (1...12).map { Node.Member("property\($0)", .object([.init("type", .string("string"))])) })
        let schemas = (1...300).map {
            Node.Member("Schema\($0)", .object([.init("type", .string("object")), .init("properties", properties)]))
        }
        let root = Node.object([
            .init("openapi", .string("3.1.0")),
            .init("info", .object([.init("title", .string("T")), .init("version", .string("1"))])),
            .init("paths", .object([])), .init("components", .object([.init("schemas", .object(schemas))])),
        ])
        let result = try Generator.generate(root, options: GeneratorOptions())
        let models = result.files.filter { $0.name.hasPrefix("API+Models") }
        let lines = models.map { body($0).count }
        let total = lines.reduce(0, +)
        XCTAssertEqual(models.count, (total + 1499) / 1500)
        XCTAssertGreaterThan(models.count, 2)
        for count in lines { XCTAssertLessThanOrEqual(count, 1500 + 100) }
        let again = try Generator.generate(root, options: GeneratorOptions())
        XCTAssertEqual(result.files, again.files)
    }

    /// `EmptySamples.swift` in this target is the samples file of a document without examples, so
    /// building the tests compiles it.
    func testEmptySamplesFileIsTheCompiledFixture() throws {
        let result = try GeneratorFixtures.generate("constructs-3.1.json") {
            $0.tags = ["none"]
            $0.sourceName = "EmptySamples"
        }
        let samples = try XCTUnwrap(result.files.first { $0.name == "API+Samples.swift" })
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("EmptySamples.swift")
        XCTAssertEqual(samples.contents, try String(contentsOf: fixture, encoding: .utf8))
        let models = try XCTUnwrap(result.files.first { $0.name == "API+Models1.swift" })
        XCTAssertEqual(body(models), [])
    }

    func testConfigurationSetsEveryOption() throws {
        var options = GeneratorOptions()
        try options.apply(
            configuration: DocumentReader.read(
                """
                tags: [pets, store]
                paths:
                  - /pets
                operations: [login]
                access: internal
                prefix: OA
                skipSchemas: [Owner]
                layout: tag
                name: GeneratedEndpoints
                modelFiles: 4
                samples: false
                """))
        XCTAssertEqual(options.tags, ["pets", "store"])
        XCTAssertEqual(options.paths, ["/pets"])
        XCTAssertEqual(options.operationIDs, ["login"])
        XCTAssertEqual(options.accessLevel, .internal)
        XCTAssertEqual(options.typePrefix, "OA")
        XCTAssertEqual(options.skippedSchemas, ["Owner"])
        XCTAssertEqual(options.layout, .tag)
        XCTAssertEqual(options.name, "GeneratedEndpoints")
        XCTAssertEqual(options.modelFiles, 4)
        XCTAssertFalse(options.samples)
        var json = GeneratorOptions()
        try json.apply(configuration: DocumentReader.read(#"{"modelFiles": 2, "samples": true, "tags": []}"#))
        XCTAssertEqual(json.modelFiles, 2)
    }

    func testConfigurationErrorsNameTheKey() throws {
        let cases = [
            "tag: [pets]": "unknown key tag",
            "tags: pets": "tags must be a list of strings",
            "tags: [1]": "tags must be a list of strings",
            "modelFiles: four": "modelFiles must be an integer",
            "modelFiles: 0": "modelFiles must be an integer from 1 to 1000, not 0",
            "samples: no": "samples must be true or false",
            "access: open": "access must be public, package or internal, not open",
            "layout: 3": "layout must be a string",
            "prefix: 9A": "prefix must be letters",
            "name: ../x": "name must be letters",
            "- tags": "the configuration must be a mapping",
        ]
        for (text, message) in cases {
            var options = GeneratorOptions()
            XCTAssertThrowsError(try options.apply(configuration: DocumentReader.read(text)), text) { error in
                XCTAssertTrue((error as? OptionError)?.message.hasPrefix(message) == true, "\(text): \(error)")
            }
        }
    }
}

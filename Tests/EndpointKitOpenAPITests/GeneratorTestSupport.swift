import EndpointKitOpenAPIGenerator
import EndpointKitOpenAPIReader
import Foundation
import XCTest

/// Reads the project's OpenAPI test documents and generates code from them.
enum GeneratorFixtures {
    /// `Tests/OpenAPIDocuments/`.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OpenAPIDocuments")

    /// The value tree of a test document.
    static func node(_ name: String) throws -> Node {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try DocumentReader.read([UInt8](data))
    }

    /// The result of generating a test document.
    static func generate(
        _ name: String, _ configure: (inout GeneratorOptions) -> Void = { _ in }
    ) throws
        -> GenerationResult
    {
        var options = GeneratorOptions()
        options.sourceName = name
        configure(&options)
        return try Generator.generate(node(name), options: options)
    }

    /// All generated code of a result, samples included, in one text.
    static func text(_ result: GenerationResult) -> String { result.files.map(\.contents).joined() }
}

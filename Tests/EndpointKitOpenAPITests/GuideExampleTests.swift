import EndpointKitOpenAPIGenerator
import EndpointKitOpenAPIReader
import Foundation
import XCTest

/// Docs/OpenAPI.md shows a document and what the generator writes for it: the two must agree.
final class GuideExampleTests: XCTestCase {
    /// The block after `<!-- openapi-example: NAME -->` in the guide.
    private func block(_ name: String, in guide: String) throws -> String {
        let lines = guide.components(separatedBy: "\n")
        let marker = try XCTUnwrap(lines.firstIndex(of: "<!-- openapi-example: \(name) -->"), "no \(name) block")
        let fence = try XCTUnwrap(
            lines[marker...].firstIndex { $0.hasPrefix("```") }, "no block after the \(name) marker")
        let body = lines[(fence + 1)...].prefix { $0 != "```" }
        return body.joined(separator: "\n") + "\n"
    }

    func testTheGuidesGeneratedBlockIsWhatTheGeneratorWritesForItsDocument() throws {
        let guideURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/OpenAPI.md")
        let guide = try String(contentsOf: guideURL, encoding: .utf8)
        let document = try block("document", in: guide)
        let shown = try block("generated", in: guide)
        var options = GeneratorOptions()
        options.samples = false
        let result = try Generator.generate(DocumentReader.read([UInt8](document.utf8)), options: options)
        XCTAssertEqual(result.skipped, [])
        let generated = result.files.map(\.contents).joined(separator: "\n")
        // Each declaration the guide shows (they are separated by blank lines at the top level) is
        // in the output exactly as shown.
        var declaration: [String] = []
        var count = 0
        for line in (shown.components(separatedBy: "\n") + [""]) {
            if line.isEmpty, !declaration.isEmpty, !(declaration.last?.hasPrefix(" ") ?? false) {
                let text = declaration.joined(separator: "\n") + "\n"
                XCTAssertTrue(generated.contains(text), "the guide shows what the generator does not write:\n\(text)")
                declaration = []
                count += 1
            } else if !line.isEmpty || !declaration.isEmpty {
                declaration.append(line)
            }
        }
        XCTAssertGreaterThanOrEqual(count, 3, "the guide's generated block shows the request, the model and the enum")
    }
}

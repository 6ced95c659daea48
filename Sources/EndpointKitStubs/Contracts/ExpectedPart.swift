import EndpointKit
import Foundation

/// One part an ``ExpectedBody/multipart(_:order:)`` expectation looks for: its field name, and
/// optionally its file name, content type and content.
///
/// ```swift
/// body: .multipart([
///     .field("owner", "Ada"),
///     .json("items", ["count": 2]),
///     .file("photo", fileName: "cat.png", contentType: "image/png", data: pngData),
///     .file("log", fileName: "log.txt"),                   // any content
/// ])
/// ```
public struct ExpectedPart: Sendable, CustomStringConvertible {
    enum Content: Sendable {
        case any
        case bytes(Data)
        case json(JSONValue)
    }

    /// The form field name.
    public let name: String
    /// The file name expected in `Content-Disposition`; `nil` for a part without one.
    public let fileName: String?
    /// The expected `Content-Type` of the part; `nil` to not check it.
    public let contentType: String?
    let content: Content

    /// A text field (no file name), with this value.
    public static func field(_ name: String, _ value: String) -> ExpectedPart {
        ExpectedPart(name: name, fileName: nil, contentType: nil, content: .bytes(Data(value.utf8)))
    }

    /// A JSON part equal in value to `value`, with `Content-Type: application/json`.
    public static func json(_ name: String, _ value: JSONValue) -> ExpectedPart {
        ExpectedPart(name: name, fileName: nil, contentType: "application/json", content: .json(value))
    }

    /// A file part.
    /// - Parameters:
    ///   - name: The field name.
    ///   - fileName: The file name sent.
    ///   - contentType: The part's content type; `nil` (unchecked) by default.
    ///   - data: The bytes; `nil` (any content) by default.
    public static func file(
        _ name: String, fileName: String, contentType: String? = nil, data: Data? = nil
    ) -> ExpectedPart {
        ExpectedPart(name: name, fileName: fileName, contentType: contentType, content: data.map { .bytes($0) } ?? .any)
    }

    /// The part in words, such as `"photo" (file cat.png, image/png, 42 bytes)`.
    public var description: String {
        var details: [String] = []
        if let fileName { details.append("file \(fileName)") }
        if let contentType { details.append(contentType) }
        switch content {
        case .any: break
        case .bytes(let data): details.append(ContractChecker.preview(data))
        case .json(let value): details.append(value.description)
        }
        return name.debugDescription + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
    }

    /// Why `part` is not this part, or `nil` when it is.
    func mismatch(with part: MultipartParser.Part) -> String? {
        if part.fileName != fileName { return "file name \(part.fileName.map(\.debugDescription) ?? "none")" }
        if let contentType, part.contentType?.lowercased() != contentType.lowercased() {
            return "content type \(part.contentType ?? "none")"
        }
        switch content {
        case .any:
            return nil
        case .bytes(let data):
            return data == part.data ? nil : "content \(ContractChecker.preview(part.data))"
        case .json(let value):
            guard let actual = try? JSONDecoder().decode(JSONValue.self, from: part.data) else {
                return "content that is not JSON: \(ContractChecker.preview(part.data))"
            }
            let diff = JSONDiff.lines(expected: value, actual: actual)
            return diff.isEmpty ? nil : "JSON \(actual)"
        }
    }
}

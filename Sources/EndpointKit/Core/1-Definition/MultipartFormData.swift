import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields, in-memory data, files streamed from
/// disk, and JSON parts.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", name: "owner")
/// form.append(json: ["count": 2], name: "items")
/// form.append(fileAt: photoURL, name: "photo")              // MIME type from the extension
/// var parameters: RequestParameters { .multipart(form) }    // POST or PUT
/// ```
///
/// Bodies smaller than ``inMemoryThreshold`` are encoded in memory; larger ones are written part
/// by part to a temporary file that is uploaded with a `Content-Length` and removed when the
/// request completes, fails or is cancelled. The boundary is random and is checked not to occur
/// in any part.
public struct MultipartFormData: Sendable {
    /// One part of the body.
    package struct Part: Sendable {
        /// Where a part's bytes come from.
        package enum Content: Sendable {
            /// Bytes in memory.
            case data(Data)
            /// A file streamed from disk.
            case file(URL)
        }

        /// The form field name.
        package var name: String
        /// The file name sent in `Content-Disposition`, if any.
        package var fileName: String?
        /// The part's `Content-Type`, if any.
        package var contentType: String?
        /// Extra part headers (for example `Content-Transfer-Encoding`).
        package var headers: HTTPHeaders
        /// The bytes.
        package var content: Content
    }

    /// The parts, in order.
    package private(set) var parts: [Part] = []
    /// Bodies up to this many bytes are built in memory; larger ones go through a temporary file.
    /// 10 MiB by default.
    public var inMemoryThreshold: Int = 10 * 1024 * 1024
    /// The boundary; random unless set.
    public var boundary: String = MultipartFormData.randomBoundary()

    /// Creates an empty form.
    public init() {}

    /// Appends a text field.
    public mutating func append(_ value: String, name: String) {
        parts.append(
            Part(
                name: name, fileName: nil, contentType: nil, headers: HTTPHeaders.empty,
                content: .data(Data(value.utf8))))
    }

    /// Appends bytes, optionally as a file with a name and MIME type.
    public mutating func append(
        _ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil,
        headers: HTTPHeaders = .empty
    ) {
        let type = mimeType ?? (fileName != nil ? MIMEType.forFileName(fileName ?? "") : nil)
        parts.append(Part(name: name, fileName: fileName, contentType: type, headers: headers, content: .data(data)))
    }

    /// Appends a file streamed from disk. The file name defaults to the file's own name and the
    /// MIME type to the one for its extension (`MIMEType`).
    public mutating func append(
        fileAt url: URL, name: String, fileName: String? = nil, mimeType: String? = nil,
        headers: HTTPHeaders = .empty
    ) {
        let fileName = fileName ?? url.lastPathComponent
        parts.append(
            Part(
                name: name, fileName: fileName, contentType: mimeType ?? MIMEType.forFileName(fileName),
                headers: headers, content: .file(url)))
    }

    /// Appends a JSON part (`application/json`) from a ``JSONValue`` literal.
    public mutating func append(json value: JSONValue, name: String) {
        append(Data(value.description.utf8), name: name, mimeType: "application/json")
    }

    /// The `Content-Type` header value, with the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// A boundary of 32 random hexadecimal digits after a fixed prefix.
    static func randomBoundary() -> String {
        "EndpointKit-" + (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max)) }.joined()
    }

    /// The head of a part: boundary line, `Content-Disposition`, `Content-Type`, extra headers.
    func head(of part: Part, first: Bool) -> Data {
        var text = (first ? "" : "\r\n") + "--\(boundary)\r\n"
        text += "Content-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let fileName = part.fileName { text += "; filename=\"\(Self.escape(fileName))\"" }
        text += "\r\n"
        if let contentType = part.contentType { text += "Content-Type: \(contentType)\r\n" }
        for field in part.headers { text += "\(field.name): \(field.value)\r\n" }
        return Data((text + "\r\n").utf8)
    }

    /// The closing delimiter.
    var tail: Data { Data(((parts.isEmpty ? "" : "\r\n") + "--\(boundary)--\r\n").utf8) }

    /// Quotes `"` and removes CR/LF in names, as RFC 7578 §4.2 suggests, so a name cannot inject
    /// headers.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

import Foundation

/// The body of a request and how it is encoded.
///
/// Encoding happens when the request is built; a value that cannot be encoded fails that request
/// with ``RequestBuildError/bodyEncodingFailed(_:)`` rather than crashing.
package struct RequestBody: Sendable {
    enum Storage: Sendable {
        case data(Data, contentType: String)
        case encodable(@Sendable (JSONEncoder) throws -> Data, encoder: JSONEncoder?)
        case form(QueryItems)
        case encodableForm(EncodableParameters)
        case multipart(MultipartFormData)
        case file(URL, contentType: String)
        case invalid(String)
    }

    let storage: Storage

    /// A JSON body from an `Encodable` value, encoded with `encoder` or else the client's encoder.
    package static func json<Value: Encodable & Sendable>(_ value: Value, encoder: JSONEncoder? = nil) -> RequestBody {
        RequestBody(storage: .encodable({ try $0.encode(value) }, encoder: encoder))
    }

    /// A JSON body from a ``JSONValue`` literal, encoded with sorted keys.
    package static func json(_ value: JSONValue) -> RequestBody {
        RequestBody(
            storage: .encodable(
                { _ in
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    return try encoder.encode(value)
                }, encoder: nil))
    }

    /// An `application/x-www-form-urlencoded` body.
    package static func form(_ items: QueryItems) -> RequestBody { RequestBody(storage: .form(items)) }

    /// An `application/x-www-form-urlencoded` body from an `Encodable` value, written when the
    /// request is built (see ``FormEncoder``).
    package static func form(_ parameters: EncodableParameters) -> RequestBody {
        RequestBody(storage: .encodableForm(parameters))
    }

    /// A `multipart/form-data` body (see ``MultipartFormData``).
    package static func multipart(_ form: MultipartFormData) -> RequestBody { RequestBody(storage: .multipart(form)) }

    /// The bytes of a file, streamed from disk with a known `Content-Length`. A missing or
    /// unreadable file fails the request before anything is sent.
    package static func file(_ url: URL, contentType: String? = nil) -> RequestBody {
        RequestBody(storage: .file(url, contentType: contentType ?? MIMEType.forFileName(url.lastPathComponent)))
    }

    /// Raw bytes with the given content type.
    package static func data(_ data: Data, contentType: String) -> RequestBody {
        RequestBody(storage: .data(data, contentType: contentType))
    }

    /// Text encoded as UTF-8.
    package static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(storage: .data(Data(text.utf8), contentType: contentType))
    }
}

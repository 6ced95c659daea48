import Foundation

/// Which responses count as acceptable before decoding.
///
/// A status outside ``acceptableStatusCodes`` becomes a ``ServerFailure`` (the server answered
/// "no"); a content type outside ``acceptableContentTypes`` becomes a ``TransportError`` with
/// reason ``TransportError/Reason/unacceptableContentType(_:)`` (the answer is not usable).
public struct ResponseValidation: Sendable, Hashable {
    /// Acceptable HTTP status codes. `200..<300` by default.
    public var acceptableStatusCodes: Set<Int>
    /// Acceptable media types (`type/subtype`, parameters ignored, `*` wildcards allowed), or
    /// `nil` to accept any. Empty bodies are never rejected for their content type.
    public var acceptableContentTypes: [String]?

    /// Creates a validation.
    /// - Parameters:
    ///   - acceptableStatusCodes: `200..<300` by default.
    ///   - acceptableContentTypes: `nil` (any) by default.
    public init(acceptableStatusCodes: Set<Int> = Set(200..<300), acceptableContentTypes: [String]? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// `2xx`, any content type.
    package static let `default` = ResponseValidation()

    /// `2xx` and the JSON-ish media types a typical mobile backend sends.
    public static let json = ResponseValidation(acceptableContentTypes: [
        "application/json", "text/json", "text/javascript", "text/plain", "text/html", "application/*+json",
    ])

    /// Whether a `Content-Type` header value is acceptable.
    @_spi(Internal) public func accepts(contentType: String?) -> Bool {
        guard let acceptable = acceptableContentTypes else { return true }
        guard let contentType, let received = MediaType(contentType) else { return false }
        return acceptable.contains { MediaType($0)?.matches(received) ?? false }
    }
}

/// A parsed `type/subtype` with `*` wildcards and `+suffix` matching (`application/*+json`).
struct MediaType: Equatable {
    let type: String
    let subtype: String

    init?(_ string: String) {
        let essence = string.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let parts = essence.trimmingCharacters(in: .whitespaces).lowercased().split(separator: "/")
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        type = String(parts[0])
        subtype = String(parts[1])
    }

    func matches(_ other: MediaType) -> Bool {
        guard type == "*" || type == other.type else { return false }
        if subtype == "*" || subtype == other.subtype { return true }
        if subtype.hasPrefix("*+") { return other.subtype.hasSuffix(String(subtype.dropFirst(1))) }
        return false
    }
}

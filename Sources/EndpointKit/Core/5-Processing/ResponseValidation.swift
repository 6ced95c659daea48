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
    /// The statuses whose response may have an empty body (Alamofire's `emptyResponseCodes`,
    /// `[204, 205]` there). When this or ``emptyResponseMethods`` is set, an empty body decodes
    /// (to ``Empty``, or `nil` for an optional) only for a status here or a method there, and is a
    /// decoding failure otherwise. `nil` by default, with ``emptyResponseMethods`` `nil` too: an
    /// empty body decodes for any status and method.
    public var emptyResponseStatusCodes: Set<Int>?
    /// The methods whose response may have an empty body (Alamofire's `emptyRequestMethods`,
    /// `[.head]` there); see ``emptyResponseStatusCodes``. `nil` by default.
    public var emptyResponseMethods: Set<HTTPMethod>?
    /// Whether the response's content type must be one the request's `Accept` header names
    /// (Alamofire's `.validate()`), as with ``acceptableContentTypes``: a refused type is
    /// ``TransportError/Reason/unacceptableContentType(_:)``. A request without `Accept`, or with
    /// `*/*`, accepts any type, and an empty body is never refused. `false` by default.
    public var matchesAcceptHeader = false

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

    /// The rule for empty bodies, or `nil` when an empty body decodes for any status and method.
    var emptyBodyRule: EmptyBodyRule? {
        guard emptyResponseStatusCodes != nil || emptyResponseMethods != nil else { return nil }
        return EmptyBodyRule(statusCodes: emptyResponseStatusCodes ?? [], methods: emptyResponseMethods ?? [])
    }

    /// Whether a `Content-Type` header value is one the request's `Accept` header value names
    /// (types with `q=0` excluded); `true` when there is no `Accept`.
    static func accepts(contentType: String?, accept: String?) -> Bool {
        guard let accept, !accept.isEmpty else { return true }
        let ranges = accept.split(separator: ",").compactMap { range -> MediaType? in
            let refused = MediaType.parameters(of: range).contains { $0.name == "q" && Double($0.value) == 0 }
            return refused ? nil : MediaType(String(range))
        }
        guard !ranges.isEmpty else { return false }
        guard let contentType, let received = MediaType(contentType) else { return false }
        return ranges.contains { $0.matches(received) }
    }

    /// Whether a `Content-Type` header value is acceptable.
    @_spi(Internal) public func accepts(contentType: String?) -> Bool {
        guard let acceptable = acceptableContentTypes else { return true }
        guard let contentType, let received = MediaType(contentType) else { return false }
        return acceptable.contains { MediaType($0)?.matches(received) ?? false }
    }
}

/// Where an empty body is expected: ``ResponseValidation/emptyResponseStatusCodes`` and
/// ``ResponseValidation/emptyResponseMethods`` when either is set.
struct EmptyBodyRule: Sendable {
    let statusCodes: Set<Int>
    let methods: Set<HTTPMethod>

    func allows(status: Int, method: HTTPMethod) -> Bool {
        statusCodes.contains(status) || methods.contains(method)
    }
}

/// A parsed `type/subtype` with `*` wildcards and `+suffix` matching (`application/*+json`).
package struct MediaType: Equatable {
    /// The parameters of a media type or range (`text/plain; charset="utf-8"; q=0.5`), in order:
    /// names lowercased, values trimmed of spaces and otherwise as written (quotes kept).
    package static func parameters(of value: some StringProtocol) -> [(name: String, value: String)] {
        value.split(separator: ";").dropFirst().compactMap { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return pair.count == 2 ? (pair[0].lowercased(), pair[1]) : nil
        }
    }

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

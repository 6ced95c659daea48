import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replaces secrets in requests and responses before they are written anywhere: fixture files,
/// logs, failure messages.
///
/// Two lists say what is secret, both compared case-insensitively:
/// - header names: the whole value is replaced (`Authorization: REDACTED`);
/// - parameter names: the value is replaced wherever the name appears as a query parameter, a
///   form field, or a key of a JSON object at any depth (`?access_token=REDACTED`).
///
/// ```swift
/// let redactor = Redactor.default.adding(headerNames: ["X-Api-Key"], parameterNames: ["session"])
/// let safe = redactor.redact(urlRequest)
/// ```
///
/// Everything that is not secret is kept byte for byte: a query keeps its order and encoding, and
/// a body is only rewritten when it contained a secret.
public struct Redactor: Sendable, Hashable {
    /// `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization`.
    public static let defaultHeaderNames: Set<String> = [
        "Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization",
    ]

    /// Parameter names that carry credentials in common APIs and OAuth 2.0 (RFC 6749):
    /// `access_token`, `refresh_token`, `id_token`, `client_secret`, `password`, `api_key`, `apikey`.
    public static let defaultParameterNames: Set<String> = [
        "access_token", "refresh_token", "id_token", "client_secret", "password", "api_key", "apikey",
    ]

    /// The default rules: ``defaultHeaderNames``, ``defaultParameterNames``, replaced by `REDACTED`.
    public static let `default` = Redactor()

    /// The names of headers whose values are secret, lowercased.
    let headerNames: Set<String>
    /// The names of query parameters, form fields and JSON keys whose values are secret, lowercased.
    let parameterNames: Set<String>
    /// The text written instead of a secret. `REDACTED` by default: it needs no escaping in a
    /// header, a query, a form or JSON.
    let replacement: String

    /// Creates a redactor.
    /// - Parameters:
    ///   - headerNames: Secret header names; ``defaultHeaderNames`` by default.
    ///   - parameterNames: Secret query, form and JSON key names; ``defaultParameterNames`` by default.
    ///   - replacement: The text written instead of a secret; `REDACTED` by default.
    public init(
        headerNames: some Sequence<String> = Redactor.defaultHeaderNames,
        parameterNames: some Sequence<String> = Redactor.defaultParameterNames, replacement: String = "REDACTED"
    ) {
        self.headerNames = Set(headerNames.map { $0.lowercased() })
        self.parameterNames = Set(parameterNames.map { $0.lowercased() })
        self.replacement = replacement
    }

    /// These rules with more secret header and parameter names.
    /// - Parameters:
    ///   - headerNames: More secret header names. None by default.
    ///   - parameterNames: More secret query, form and JSON key names. None by default.
    /// - Returns: The extended redactor.
    public func adding(headerNames: [String] = [], parameterNames: [String] = []) -> Redactor {
        Redactor(
            headerNames: self.headerNames.union(headerNames.map { $0.lowercased() }),
            parameterNames: self.parameterNames.union(parameterNames.map { $0.lowercased() }), replacement: replacement)
    }

    /// Whether the value of the header named `name` is secret.
    package func isSecretHeader(_ name: String) -> Bool { headerNames.contains(name.lowercased()) }

    /// Whether the value of the query parameter, form field or JSON key named `name` is secret.
    package func isSecretParameter(_ name: String) -> Bool { parameterNames.contains(name.lowercased()) }

    /// The headers with secret values replaced, in their order.
    package func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.name, value: redactHeader($0.name, value: $0.value)) })
    }

    /// The headers with secret values replaced.
    package func redact(_ headers: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: headers.map { ($0.key, redactHeader($0.key, value: $0.value)) })
    }

    /// `value`, or ``replacement`` when the header named `name` is secret.
    package func redactHeader(_ name: String, value: String) -> String {
        isSecretHeader(name) ? replacement : value
    }

    /// The URL with the values of secret query parameters replaced; the rest of the URL is kept as
    /// it is.
    package func redact(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let query = components.percentEncodedQuery
        else { return url }
        let redacted = redactQuery(query)
        guard redacted != query else { return url }
        components.percentEncodedQuery = redacted
        return components.url ?? url
    }

    /// A percent-encoded query string (`a=1&token=x`) with the values of secret parameters replaced.
    package func redactQuery(_ query: String) -> String {
        redactPairs(query, plusIsSpace: false)
    }

    /// A body with secrets replaced: form fields for `application/x-www-form-urlencoded`, keys at
    /// any depth for JSON (`application/json`, `+json`, or an unlabelled body that parses as a
    /// JSON object or array). Other bodies, and bodies without secrets, come back unchanged.
    /// - Parameters:
    ///   - body: The body.
    ///   - contentType: The `Content-Type` header of the body, if any.
    /// - Returns: The body, rewritten only if it held a secret (JSON then has sorted keys).
    package func redactBody(_ body: Data, contentType: String?) -> Data {
        guard !body.isEmpty, !parameterNames.isEmpty else { return body }
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            let text = String(decoding: body, as: UTF8.self)
            let redacted = redactPairs(text, plusIsSpace: true)
            return redacted == text ? body : Data(redacted.utf8)
        }
        let looksLikeJSON = type.isEmpty && [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(body.first)
        guard type.contains("json") || looksLikeJSON,
            let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return body }
        var changed = false
        let redacted = redactJSON(object, changed: &changed)
        guard changed,
            let data = try? JSONSerialization.data(
                withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return body }
        return data
    }

    /// The request with secret headers, query parameters and body fields replaced.
    package func redact(_ request: URLRequest) -> URLRequest {
        var copy = request
        copy.url = request.url.map(redact)
        for (name, value) in request.allHTTPHeaderFields ?? [:] where isSecretHeader(name) {
            copy.setValue(redactHeader(name, value: value), forHTTPHeaderField: name)
        }
        if let body = request.httpBody {
            copy.httpBody = redactBody(body, contentType: request.value(forHTTPHeaderField: "Content-Type"))
        }
        return copy
    }

    private func redactPairs(_ text: String, plusIsSpace: Bool) -> String {
        guard !parameterNames.isEmpty, !text.isEmpty else { return text }
        let encodedReplacement = PercentEncoding.encodeQueryComponent(replacement)
        return text.split(separator: "&", omittingEmptySubsequences: false)
            .map { pair -> String in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let rawName = String(pair[..<equals])
                let spaced = plusIsSpace ? rawName.replacingOccurrences(of: "+", with: " ") : rawName
                let name = spaced.removingPercentEncoding ?? spaced
                return isSecretParameter(name) ? rawName + "=" + encodedReplacement : String(pair)
            }
            .joined(separator: "&")
    }

    private func redactJSON(_ object: Any, changed: inout Bool) -> Any {
        if let dictionary = object as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, value) in dictionary {
                if isSecretParameter(key) {
                    result[key] = replacement
                    changed = true
                } else {
                    result[key] = redactJSON(value, changed: &changed)
                }
            }
            return result
        }
        if let array = object as? [Any] {
            return array.map { redactJSON($0, changed: &changed) }
        }
        return object
    }
}

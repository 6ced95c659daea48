import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// A `curl` command line that sends this request, with secrets redacted (pass `nil` to keep
    /// them: only for your own terminal).
    ///
    /// ```swift
    /// print(try client.urlRequest(for: GetUser(id: 7)).curlCommand())
    /// // curl -X GET -H 'Accept: application/json' 'https://api.example.com/users/7'
    /// ```
    public func curlCommand(redactor: Redactor? = .default) -> String {
        let request = redactor.map { $0.redact(self) } ?? self
        var parts = ["curl", "-X", request.httpMethod ?? "GET"]
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts += ["-H", Self.shellQuoted("\(name): \(value)")]
        }
        if let body = request.httpBody, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts += ["--data-binary", Self.shellQuoted(text)]
            } else {
                parts += ["--data-binary", Self.shellQuoted("<\(body.count) bytes of binary data>")]
            }
        }
        parts.append(Self.shellQuoted(request.url?.absoluteString ?? ""))
        return parts.joined(separator: " ")
    }

    /// Single-quotes text for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

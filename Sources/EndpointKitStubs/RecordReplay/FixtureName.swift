import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Names fixture files after the request, so the same request finds the same file on every run:
/// `GET_users_7.json`, `GET_search-5f0e3c2a.json` (a hash of the query and body, after redaction,
/// so rotating secrets do not change it, and with a multipart boundary normalized, so its random
/// boundary does not either), and `GET_feed.2.json` for the second identical request of a test.
/// An upload file too large to read counts by its size.
final class FixtureName: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String: Int] = [:]

    /// The file name for the next occurrence of `base`.
    func next(_ base: String) -> String {
        let count = lock.withLock { () -> Int in
            seen[base, default: 0] += 1
            return seen[base, default: 1]
        }
        return count == 1 ? base + ".json" : base + ".\(count).json"
    }

    /// `METHOD_path[-hash]`, safe as a file name on every platform.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body (``CapturedBody``); `nil` for its `httpBody`.
    ///   - redactor: The rules applied before hashing.
    static func base(for request: URLRequest, body: CapturedBody? = nil, redactor: Redactor) -> String {
        let redacted = redactor.redact(request)
        let components = redacted.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        let path = components?.percentEncodedPath ?? ""
        var name = (redacted.httpMethod ?? "GET") + "_" + sanitize(path)
        let query = components?.percentEncodedQuery ?? ""
        let contentType = request.value(forHTTPHeaderField: "Content-Type")
        var bodyKey = redacted.httpBody ?? Data()
        if let body {
            bodyKey =
                body.normalized(contentType: contentType).map { redactor.redactBody($0, contentType: contentType) }
                ?? Data("file of \(body.size) bytes".utf8)
        }
        if !query.isEmpty || !bodyKey.isEmpty {
            name += "-" + hash(Data(query.utf8) + [0] + bodyKey)
        }
        return name
    }

    /// Letters, digits, `-` and `.` kept; every other run of characters becomes one `_`.
    private static func sanitize(_ path: String) -> String {
        var result = ""
        for character in path.unicodeScalars {
            let keep =
                character.isASCII
                && (CharacterSet.alphanumerics.contains(character) || "-.".unicodeScalars.contains(character))
            if keep {
                result.unicodeScalars.append(character)
            } else if !result.hasSuffix("_") {
                result += "_"
            }
        }
        let trimmed = result.trimmingCharacters(in: CharacterSet(charactersIn: "_."))
        return trimmed.isEmpty ? "root" : String(trimmed.prefix(100))
    }

    /// FNV-1a, 32 bits, in hex: stable across runs and platforms, unlike `Hasher`.
    private static func hash(_ data: Data) -> String {
        var value: UInt32 = 2_166_136_261
        for byte in data {
            value ^= UInt32(byte)
            value = value &* 16_777_619
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

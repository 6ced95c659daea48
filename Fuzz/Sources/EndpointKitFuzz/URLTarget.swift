import Foundation

@_spi(Internal) @testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URL building: a base URL, a path (literal, interpolated, segments or percent-encoded) and query
/// items in one of the array encodings.
///
/// Properties: a built URL is printable ASCII without spaces; interpolated values and segments
/// come back unchanged from the URL's path and can neither add nor remove a segment; query
/// names and values come back unchanged in order, after the base URL's own query; redaction
/// replaces exactly the secret values.
enum URLTarget {
    private static let bases = [
        "https://fuzz.example", "https://fuzz.example/api/v1/", "http://127.0.0.1:8080/base?x=1#f",
        "https://user@fuzz.example:443/a%20b",
    ]
    private static let encodings: [ArrayEncoding] = [.repeatedKey, .brackets, .commaSeparated]

    static func run(_ input: inout FuzzInput) {
        let baseChoice = input.choice(bases.count + 1)
        let baseString = baseChoice < bases.count ? bases[baseChoice] : input.string()
        guard let base = URL(string: baseString) else { return }

        let first = input.string()
        let second = input.string()
        let pathMode = input.choice(5)
        let path: RequestPath
        var segments: [String]?
        switch pathMode {
        case 0: path = RequestPath(stringLiteral: first)
        case 1:
            path = "/users/\(first)/posts/\(second)"
            segments = ["users", first, "posts", second]
        case 2: path = "/files/\(raw: first)"
        case 3:
            path = "/\(first)/\(second)"
            segments = [first, second]
        default: path = RequestPath(percentEncoded: first)
        }

        var query: QueryItems = []
        for _ in 0..<input.choice(4) {
            let name = input.string()
            switch input.choice(4) {
            case 0: query.append(name, .none)
            case 1: query.append(name, .array([input.string(), input.string()]))
            default: query.append(name, .string(input.string()))
            }
        }
        let encoding = encodings[input.choice(encodings.count)]
        let client = clients[encoding] ?? FuzzRequest.client

        let request = FuzzRequest(baseURL: base, path: path, parameters: .query(query))
        let built: URLRequest
        do {
            built = try client.urlRequest(for: request)
        } catch {
            switch error {
            case .invalidURL: return
            case .controlCharacter("path"):
                return expect(holdsControlCharacter(path.description), "path \(path) refused without cause")
            case .controlCharacter("query"):
                let texts = query.pairs(arrayEncoding: encoding).flatMap { [$0.name, $0.value] }
                return expect(
                    texts.contains { $0.unicodeScalars.contains { [0x0D, 0x0A, 0x00].contains($0.value) } },
                    "query \(texts) refused without cause")
            default: return expect(false, "unexpected error \(error)")
            }
        }
        guard let url = built.url else { return expect(false, "no URL") }
        let text = url.absoluteString
        expect(text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "the URL has raw bytes: \(text.debugDescription)")
        if baseChoice < bases.count {  // the fixed bases hold none; a fuzzed base is trusted configuration
            expect(!holdsControlCharacter(text), "CR, LF or NUL encoded in \(text)")
        }
        _ = built.curlCommand()

        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return expect(false, "the built URL does not parse: \(text)")
        }
        if let segments {
            let basePath = URLComponents(url: base, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
            let trimmed = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
            let pathText = components.percentEncodedPath
            expect(pathText.hasPrefix(trimmed + "/"), "the path \(pathText) lost the base \(trimmed)")
            let own = pathText.dropFirst(trimmed.count + 1).split(separator: "/", omittingEmptySubsequences: false)
            expect(
                own.map { String($0).removingPercentEncoding } == segments,
                "segments \(segments) became \(pathText)")
            expect(!own.contains { $0 == "." || $0 == ".." }, "a dot segment in \(pathText)")
        }
        if pathMode != 4, baseChoice < bases.count {
            let expected = decodedItems(of: base) + query.pairs(arrayEncoding: encoding)
            let actual = decodedItems(of: url)
            expect(
                actual.count == expected.count
                    && zip(actual, expected).allSatisfy { $0.0 == $1.name && $0.1 == $1.value },
                "query \(expected) became \(components.percentEncodedQuery ?? "nil")")
            checkRedaction(url, expected: expected)
        }
    }

    /// The query items of `url`, percent-decoded, in order (the base URL's come first in a built one).
    private static func decodedItems(of url: URL) -> [(name: String, value: String)] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems ?? []
        return items.map { ($0.name.removingPercentEncoding ?? "\u{0}", $0.value?.removingPercentEncoding ?? "\u{0}") }
    }

    /// Whether text holds CR, LF or NUL, raw or percent-encoded (what the builder must refuse).
    private static func holdsControlCharacter(_ text: String) -> Bool {
        let upper = text.uppercased()
        return upper.contains("%0D") || upper.contains("%0A") || upper.contains("%00")
            || text.unicodeScalars.contains { [0x0D, 0x0A, 0x00].contains($0.value) }
    }

    private static let clients: [ArrayEncoding: APIClient] = Dictionary(
        uniqueKeysWithValues: encodings.map { encoding in
            var configuration = APIClient.Configuration(baseURL: URL(string: "https://fuzz.example"))
            configuration.arrayEncoding = encoding
            return (encoding, APIClient(configuration: configuration))
        })

    /// Redaction keeps every pair but replaces the values of secret names.
    private static func checkRedaction(_ url: URL, expected: [(name: String, value: String)]) {
        let redactor = Redactor.default
        let redacted = redactor.redact(url)
        let items = URLComponents(url: redacted, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems ?? []
        expect(items.count == expected.count, "redaction changed the number of pairs in \(url)")
        for (item, pair) in zip(items, expected) {
            let value = item.value?.removingPercentEncoding
            if redactor.isSecretParameter(pair.name) {
                expect(value == "REDACTED", "\(pair.name) was not redacted in \(redacted)")
            } else {
                expect(value == pair.value, "\(pair.name) was changed by redaction in \(redacted)")
            }
        }
    }
}

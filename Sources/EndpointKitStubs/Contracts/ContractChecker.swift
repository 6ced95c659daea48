@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Compares one built request with the parts of an ``EndpointContract``.
struct ContractChecker {
    typealias Pair = (name: String, value: String)

    let request: URLRequest
    let arrayEncoding: ArrayEncoding

    func checkMethod(_ expected: HTTPMethod) -> [ContractMismatch] {
        let actual = request.httpMethod ?? "GET"
        guard actual != expected.rawValue else { return [] }
        return [
            ContractMismatch(.method, "expected \(expected), got \(actual)", diff: ["- \(expected)", "+ \(actual)"])
        ]
    }

    func checkURL(_ expected: String, order: EndpointContract.ParameterOrder) -> [ContractMismatch] {
        let actual = request.url?.absoluteString ?? ""
        guard let expectedParts = URLComponents(string: expected) else {
            return [ContractMismatch(.url, "the expected URL is not a valid URL: \(expected)")]
        }
        let actualParts = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        let sameBase =
            expectedParts.scheme?.lowercased() == actualParts?.scheme?.lowercased()
            && expectedParts.host?.lowercased() == actualParts?.host?.lowercased()
            && expectedParts.port == actualParts?.port
            && expectedParts.percentEncodedPath == actualParts?.percentEncodedPath
            && expectedParts.fragment == actualParts?.fragment
        let queryDiff = Self.pairDiff(
            expected: Self.pairs(of: expectedParts), actual: actualParts.map(Self.pairs(of:)) ?? [], order: order)
        guard !sameBase || queryDiff != nil else { return [] }
        let summary = sameBase ? "the query differs" + (order == .any ? " (in any order)" : "") : "the URL differs"
        return [ContractMismatch(.url, summary, diff: ["- \(expected)", "+ \(actual)"] + (queryDiff ?? []))]
    }

    func checkQuery(_ expected: QueryItems, order: EndpointContract.ParameterOrder) -> [ContractMismatch] {
        let actual = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }.map(Self.pairs(of:))
        let expectedPairs = expected.pairs(arrayEncoding: arrayEncoding)
        guard let diff = Self.pairDiff(expected: expectedPairs, actual: actual ?? [], order: order) else { return [] }
        return [ContractMismatch(.query, "the query parameters differ", diff: diff)]
    }

    func checkHeaders(_ expected: HTTPHeaders, absent: [String]) -> [ContractMismatch] {
        var mismatches: [ContractMismatch] = []
        for field in expected {
            let actual = request.value(forHTTPHeaderField: field.name)
            guard actual != field.value else { continue }
            let sent = actual.map { "+ \(field.name): \($0)" } ?? "+ (no \(field.name) header)"
            let summary = actual == nil ? "missing" : "different value"
            mismatches.append(
                ContractMismatch(.header(field.name), summary, diff: ["- \(field.name): \(field.value)", sent]))
        }
        for name in absent {
            guard let actual = request.value(forHTTPHeaderField: name) else { continue }
            mismatches.append(
                ContractMismatch(
                    .header(name), "should be absent", diff: ["- (no \(name) header)", "+ \(name): \(actual)"]))
        }
        return mismatches
    }

    func checkBody(_ expected: ExpectedBody) -> [ContractMismatch] {
        let body = request.httpBody ?? Data()
        switch expected.kind {
        case .empty:
            guard !body.isEmpty else { return [] }
            return [ContractMismatch(.body, "expected no body", diff: ["- (no body)", "+ " + Self.preview(body)])]
        case .json(let value):
            return checkContentType(containing: "json") + checkJSON(value, body)
        case .form(let items, let order):
            let actual = Self.formPairs(body)
            let contentType = checkContentType(containing: "application/x-www-form-urlencoded")
            guard
                let diff = Self.pairDiff(
                    expected: items.pairs(arrayEncoding: arrayEncoding), actual: actual, order: order)
            else { return contentType }
            return contentType + [ContractMismatch(.body, "the form fields differ", diff: diff)]
        case .multipart(let parts, let order):
            return checkContentType(containing: "multipart/form-data") + checkMultipart(parts, order: order, body)
        case .data(let data):
            guard data != body else { return [] }
            return [
                ContractMismatch(
                    .body, "the bytes differ", diff: ["- " + Self.preview(data), "+ " + Self.preview(body)])
            ]
        case .text(let text):
            guard Data(text.utf8) != body else { return [] }
            return [ContractMismatch(.body, "the text differs", diff: ["- " + text, "+ " + Self.preview(body)])]
        case .invalid(let reason):
            return [ContractMismatch(.body, reason)]
        }
    }

    private func checkJSON(_ expected: JSONValue, _ body: Data) -> [ContractMismatch] {
        guard let actual = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            return [
                ContractMismatch(.body, "the body is not JSON", diff: ["- \(expected)", "+ " + Self.preview(body)])
            ]
        }
        let diff = JSONDiff.lines(expected: expected, actual: actual)
        return diff.isEmpty ? [] : [ContractMismatch(.body, "the JSON differs", diff: diff)]
    }

    private func checkMultipart(
        _ expected: [ExpectedPart], order: EndpointContract.ParameterOrder, _ body: Data
    ) -> [ContractMismatch] {
        let contentType = request.value(forHTTPHeaderField: "Content-Type")
        guard let boundary = CapturedBody.boundary(in: contentType) else { return [] }
        let actual: [MultipartParser.Part]
        switch MultipartParser.parts(of: body, boundary: boundary) {
        case .success(let parts): actual = parts
        case .failure(let error): return [ContractMismatch(.body, "the body is not multipart: \(error.reason)")]
        }
        var diff: [String] = []
        var unmatched = Array(actual.indices)
        for (position, part) in expected.enumerated() {
            let candidates = order == .exact ? (position < actual.count ? [position] : []) : unmatched
            guard let index = candidates.first(where: { actual[$0].name == part.name && unmatched.contains($0) }) else {
                diff.append("- part \(part)")
                continue
            }
            unmatched.removeAll { $0 == index }
            if let problem = part.mismatch(with: actual[index]) {
                diff += ["- part \(part)", "+ part \(actual[index].name.debugDescription) with \(problem)"]
            }
        }
        diff += unmatched.map { "+ part \(actual[$0].name.debugDescription)" }
        return diff.isEmpty ? [] : [ContractMismatch(.body, "the multipart parts differ", diff: diff)]
    }

    private func checkContentType(containing expected: String) -> [ContractMismatch] {
        let actual = request.value(forHTTPHeaderField: "Content-Type")
        guard actual?.lowercased().contains(expected) != true else { return [] }
        return [
            ContractMismatch(
                .header("Content-Type"), "does not name \(expected)",
                diff: ["- Content-Type: \(expected)", "+ " + (actual.map { "Content-Type: \($0)" } ?? "(none)")])
        ]
    }

    /// `nil` when equal; else `- name=value` lines for what is missing and `+` lines for what is
    /// unexpected (any order), or both lists in full (exact order).
    static func pairDiff(expected: [Pair], actual: [Pair], order: EndpointContract.ParameterOrder) -> [String]? {
        let render = { (pair: Pair) in "\(pair.name)=\(pair.value)" }
        let expectedText = expected.map(render)
        let actualText = actual.map(render)
        switch order {
        case .exact:
            guard expectedText != actualText else { return nil }
            return ["- " + expectedText.joined(separator: "&"), "+ " + actualText.joined(separator: "&")]
        case .any:
            var unexpected = actualText
            var missing: [String] = []
            for item in expectedText {
                if let index = unexpected.firstIndex(of: item) {
                    unexpected.remove(at: index)
                } else {
                    missing.append(item)
                }
            }
            guard !missing.isEmpty || !unexpected.isEmpty else { return nil }
            return missing.map { "- " + $0 } + unexpected.map { "+ " + $0 }
        }
    }

    static func pairs(of components: URLComponents) -> [Pair] {
        (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }

    static func formPairs(_ body: Data) -> [Pair] {
        let text = String(decoding: body, as: UTF8.self)
        guard !text.isEmpty else { return [] }
        let decode = { (part: Substring) -> String in
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return text.split(separator: "&").map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The body as text (cut at 500 characters), or its size when it is not UTF-8.
    static func preview(_ data: Data) -> String {
        guard !data.isEmpty else { return "(no body)" }
        guard let text = String(data: data, encoding: .utf8) else { return "\(data.count) bytes of binary data" }
        return text.count > 500 ? String(text.prefix(500)) + "… (\(data.count) bytes)" : text
    }
}

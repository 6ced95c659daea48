@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Compares one built request with an ``OperationContract``.
struct OperationChecker {
    let contract: OperationContract
    let request: URLRequest

    private var validator: SchemaValidator { SchemaValidator(schemas: contract.schemas) }

    func checkMethod() -> [ContractMismatch] {
        let actual = request.httpMethod ?? "GET"
        guard actual != contract.method.rawValue else { return [] }
        return [
            ContractMismatch(
                .method, "the operation is \(contract.method), the request is \(actual)",
                diff: ["- \(contract.method)", "+ \(actual)"])
        ]
    }

    func checkPath(below baseURL: URL) -> [ContractMismatch] {
        let components = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        let actual = components?.percentEncodedPath ?? ""
        var base = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        while base.hasSuffix("/") { base.removeLast() }
        let relative = actual.hasPrefix(base) ? String(actual.dropFirst(base.count)) : actual
        guard !Self.matches(relative, template: contract.path) else { return [] }
        return [
            ContractMismatch(
                .url, "the path does not match the operation's \(contract.path)",
                diff: ["- \(base)\(contract.path)", "+ \(actual)"])
        ]
    }

    func checkQuery() -> [ContractMismatch] {
        let components = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        let pairs = components.map(ContractChecker.pairs(of:)) ?? []
        var problems: [String] = []
        for parameter in contract.query
        where parameter.isRequired && !pairs.contains(where: { $0.name == parameter.name }) {
            problems.append("- \(parameter.name) (required)")
        }
        var named: [String: OperationContract.Parameter] = [:]
        for parameter in contract.query { named[parameter.name] = named[parameter.name] ?? parameter }
        for pair in pairs {
            guard let parameter = named[pair.name] ?? named[Self.bracketless(pair.name)] else {
                problems.append("+ \(pair.name)=\(pair.value) (not in the description)")
                continue
            }
            if let problem = textProblem(pair.value, parameter.schema) {
                problems.append("+ \(pair.name)=\(pair.value) (\(problem))")
            }
        }
        guard !problems.isEmpty else { return [] }
        return [ContractMismatch(.query, "the query parameters differ from the description", diff: problems)]
    }

    func checkHeaders() -> [ContractMismatch] {
        contract.headers.compactMap { parameter in
            guard let value = request.value(forHTTPHeaderField: parameter.name) else {
                guard parameter.isRequired else { return nil }
                return ContractMismatch(.header(parameter.name), "missing (required)", diff: ["- \(parameter.name)"])
            }
            guard let problem = textProblem(value, parameter.schema) else { return nil }
            return ContractMismatch(.header(parameter.name), problem, diff: ["+ \(parameter.name): \(value)"])
        }
    }

    func checkBody() -> [ContractMismatch] {
        let data = request.httpBody ?? Data()
        guard let body = contract.body else {
            guard !data.isEmpty else { return [] }
            return [ContractMismatch(.body, "the operation takes no body, the request has \(data.count) bytes")]
        }
        guard !data.isEmpty else {
            return body.isRequired
                ? [ContractMismatch(.body, "missing (the operation requires a \(body.contentType) body)")] : []
        }
        let contentType = request.value(forHTTPHeaderField: "Content-Type") ?? ""
        let mediaType = contentType.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard mediaType == body.contentType.lowercased() else {
            return [
                ContractMismatch(
                    .header("Content-Type"), "the operation takes \(body.contentType)",
                    diff: ["- \(body.contentType)", "+ \(contentType)"])
            ]
        }
        let problems: [String]
        switch body.contentType.lowercased() {
        case "application/json":
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else {
                return [ContractMismatch(.body, "the body is not JSON")]
            }
            problems = validator.problems(value, body.schema)
        case "application/x-www-form-urlencoded":
            problems = fieldProblems(ContractChecker.formPairs(data).map(\.name), body.schema)
        case "multipart/form-data":
            guard let boundary = CapturedBody.boundary(in: contentType),
                case .success(let parts) = MultipartParser.parts(of: data, boundary: boundary)
            else { return [ContractMismatch(.body, "the body is not multipart/form-data")] }
            problems = fieldProblems(parts.map(\.name), body.schema)
        default:
            problems = []
        }
        guard !problems.isEmpty else { return [] }
        return [ContractMismatch(.body, "the body does not have the described shape", diff: problems.map { "! " + $0 })]
    }

    /// Field or part names against an object schema: required ones present, no undeclared one.
    private func fieldProblems(_ names: [String], _ schema: JSONSchema) -> [String] {
        guard case .object(let properties, let required, let additional) = resolved(schema) else { return [] }
        let missing = required.filter { !names.contains($0) }.map { "/: the required field \"\($0)\" is missing" }
        let unknown = additional == nil ? names.filter { properties[Self.bracketless($0)] == nil } : []
        return missing + Set(unknown).sorted().map { "/\($0): the field \"\($0)\" is not in the description" }
    }

    /// Why a parameter's text is not a value of `schema`, or `nil`.
    private func textProblem(_ text: String, _ schema: JSONSchema, depth: Int = 0) -> String? {
        guard depth < 16 else { return nil }
        switch schema {
        case .integer: return Int(text) == nil ? "not an integer" : nil
        case .number: return Double(text) == nil ? "not a number" : nil
        case .boolean: return text == "true" || text == "false" ? nil : "not true or false"
        case .string(let values?): return values.contains(text) ? nil : "not one of \(values.joined(separator: ", "))"
        case .array(let element): return textProblem(text, element, depth: depth + 1)
        case .anyOf(let choices):
            return choices.contains { textProblem(text, $0, depth: depth + 1) == nil }
                ? nil : "matches none of its shapes"
        case .reference(let name): return contract.schemas[name].flatMap { textProblem(text, $0, depth: depth + 1) }
        default: return nil
        }
    }

    private func resolved(_ schema: JSONSchema) -> JSONSchema {
        var schema = schema
        for _ in 0..<16 {
            guard case .reference(let name) = schema, let next = contract.schemas[name] else { break }
            schema = next
        }
        return schema
    }

    /// `tags[]` and `filter[state]` read as `tags` and `filter`.
    private static func bracketless(_ name: String) -> String {
        name.firstIndex(of: "[").map { String(name[..<$0]) } ?? name
    }

    /// Whether a percent-encoded path matches a template whose `{name}` stands for one segment
    /// (or part of one, as in `/files/{name}.json`).
    static func matches(_ path: String, template: String) -> Bool {
        let pathSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        let templateSegments = template.split(separator: "/", omittingEmptySubsequences: false)
        guard pathSegments.count == templateSegments.count else { return false }
        return zip(pathSegments, templateSegments).allSatisfy { segment, pattern in
            matchesSegment(Substring(segment), pattern: Substring(pattern))
        }
    }

    private static func matchesSegment(_ segment: Substring, pattern: Substring) -> Bool {
        guard let open = pattern.firstIndex(of: "{") else { return segment == pattern }
        let literal = pattern[..<open]
        guard segment.hasPrefix(literal), let close = pattern[open...].firstIndex(of: "}") else { return false }
        let rest = pattern[pattern.index(after: close)...]
        let value = segment.dropFirst(literal.count)
        // The variable takes at least one character; try each split (templates are short).
        var end = value.startIndex
        while end < value.endIndex {
            end = value.index(after: end)
            if matchesSegment(value[end...], pattern: rest) { return true }
        }
        return false
    }
}

import Foundation

extension TestResponse {
    /// A JSON description of `request`, as served by the built-in `/echo` route.
    ///
    /// Keys (sorted): `args` (`{name: value}`, or `{name: [values]}` for repeated names), `body`
    /// (the body as UTF-8 text, `null` if it is not valid UTF-8), `bodyBase64`, `form` (only for
    /// `application/x-www-form-urlencoded` bodies: like `args`, with `+` decoded as a space),
    /// `headers` (`{lowercased-name: value}`, repeated fields joined with `", "`), `json` (the
    /// body parsed as JSON, or `null`), `method`, `path`, `query` (`[[name, value], ...]` in
    /// order), `target` and `version`.
    public static func echo(_ request: TestRequest, status: Int = 200) -> TestResponse {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        let body = request.body
        let contentType = request.header("Content-Type")?.split(separator: ";").first?.trimmed(of: " \t") ?? ""
        let isForm = ASCII.equalsIgnoringCase(String(contentType), "application/x-www-form-urlencoded")

        // Written by hand instead of with JSONSerialization: this route is on the benchmark path
        // and JSONSerialization is several times slower on Linux.
        var json = JSONWriter()
        json.bytes.append(UInt8(ascii: "{"))
        json.key("args", first: true)
        json.groupedValues(request.query)
        json.key("body")
        if let text = String(data: body, encoding: .utf8) { json.string(text) } else { json.null() }
        json.key("bodyBase64")
        json.string(body.base64EncodedString())
        if isForm {
            json.key("form")
            json.groupedValues(request.formFields)
        }
        json.key("headers")
        json.object(headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        json.key("json")
        json.raw(parsedJSON(body))
        json.key("method")
        json.string(request.method)
        json.key("path")
        json.string(request.path)
        json.key("query")
        json.bytes.append(UInt8(ascii: "["))
        for (index, pair) in request.query.enumerated() {
            if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
            json.array([pair.name, pair.value])
        }
        json.bytes.append(UInt8(ascii: "]"))
        json.key("target")
        json.string(request.target)
        json.key("version")
        json.string(request.version)
        json.bytes.append(UInt8(ascii: "}"))
        return .response(status: status, headers: [("Content-Type", "application/json")], body: Data(json.bytes))
    }

    /// The body re-serialized as canonical JSON (sorted keys), or `null` if it is not JSON.
    private static func parsedJSON(_ body: Data) -> [UInt8] {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return Array("null".utf8) }
        return Array(data)
    }
}

/// A minimal JSON text builder for strings, string arrays and string-valued objects.
struct JSONWriter {
    var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1024)
    }

    /// Writes `"name":`, preceded by a comma unless it is the first key of the object.
    mutating func key(_ name: String, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func null() {
        bytes.append(contentsOf: "null".utf8)
    }

    mutating func raw(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    mutating func array(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func object(_ pairs: [(String, String)]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, (name, value)) in pairs.enumerated() {
            key(name, first: index == 0)
            string(value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `{name: value}` with repeated names collected into `{name: [values]}`, keys sorted.
    mutating func groupedValues(_ pairs: [(name: String, value: String)]) {
        var grouped: [String: [String]] = [:]
        for (name, value) in pairs { grouped[name, default: []].append(value) }
        bytes.append(UInt8(ascii: "{"))
        for (index, (name, values)) in grouped.sorted(by: { $0.key < $1.key }).enumerated() {
            key(name, first: index == 0)
            if values.count == 1 { string(values[0]) } else { array(values) }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes a JSON string literal, escaping quotes, backslashes and control characters.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
